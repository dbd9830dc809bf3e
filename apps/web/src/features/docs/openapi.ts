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
