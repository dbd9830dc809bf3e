import type { ServiceField } from '@leadex/domain';

/** A field of a request body in the OpenAPI document. */
export interface FieldSchema {
  type?: string;
  description?: string;
}

export interface Operation {
  summary?: string;
  requestBody?: {
    content?: Record<string, { schema?: { properties?: Record<string, FieldSchema>; required?: string[] } }>;
  };
}

/** GET /api/openapi/public.json: the source API's paths and the exchange's services (`x-services`). */
export interface OpenApiDocument {
  paths: Record<string, { post?: Operation }>;
  'x-services'?: unknown;
  /** Each service's own fields (issue 33), with an example ping and post. */
  'x-service-fields'?: unknown;
}

/**
 * The service names a lead's `service` takes, from the document's `x-services`, in its order, each
 * once; anything that is not a list of names gives none.
 */
export function documentServices(doc: Pick<OpenApiDocument, 'x-services'> | undefined): string[] {
  const list = doc?.['x-services'];
  if (!Array.isArray(list)) return [];
  const names = list.filter((name): name is string => typeof name === 'string' && name.trim() !== '');
  return [...new Set(names.map((name) => name.trim()))];
}

/** A service's own fields as the document gives them (issue 33). */
export interface DocumentServiceFields {
  service: string;
  fields: ServiceField[];
  examples: { ping: Record<string, unknown>; post: Record<string, unknown> };
}

/** The services' own fields from the document's `x-service-fields`; anything malformed gives none. */
export function documentServiceFields(
  doc: Pick<OpenApiDocument, 'x-service-fields'> | undefined,
): DocumentServiceFields[] {
  const list = doc?.['x-service-fields'];
  if (!Array.isArray(list)) return [];
  return list.filter(
    (s): s is DocumentServiceFields =>
      typeof s === 'object' &&
      s !== null &&
      typeof (s as DocumentServiceFields).service === 'string' &&
      Array.isArray((s as DocumentServiceFields).fields) &&
      typeof (s as DocumentServiceFields).examples === 'object',
  );
}
