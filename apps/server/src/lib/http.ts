import { apiResponses, type Page, pageSchema } from '@leadex/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Viewer } from './scope';

/** Answers 201 Created with the record that `saving` resolves to (a POST that makes one). */
export async function created<T>(reply: FastifyReply, saving: Promise<T>): Promise<T> {
  reply.code(201);
  return saving;
}

/** The params of a route naming one record: `/x/:id`. */
export const idParams = z.object({ id: z.string() });

/** The params of a route naming a user of a buyer or a source: `/x/:id/user/:userId`. */
export const userParams = z.object({ id: z.string(), userId: z.string() });

/**
 * The schema of a paged list route: its tags and summary (if any), its query string, and a page
 * (`{ data, total }`) of `item` as its answer beside the one error shape.
 */
const pagedListSchema = <Q extends z.ZodType, T extends z.ZodType>(route: {
  tags: string[];
  summary?: string;
  querystring: Q;
  item: T;
}) => ({
  tags: route.tags,
  ...(route.summary === undefined ? {} : { summary: route.summary }),
  querystring: route.querystring,
  response: apiResponses(pageSchema(route.item)),
});

/** The app as route plugins see it: typed by its Zod schemas. */
// biome-ignore lint/suspicious/noExplicitAny: any server, logger and raw request types; only the type provider matters here.
type ZodApp = FastifyInstance<any, any, any, any, ZodTypeProvider>;

/**
 * Registers a paged list: GET `path` for the roles `onRequest` admits, its query read by `querystring`,
 * answering `list`'s page of `item`s (`summary`: the OpenAPI document's line for it).
 */
export function pagedListRoute<Q extends z.ZodType, T extends z.ZodType>(
  app: ZodApp,
  path: string,
  route: { onRequest: onRequestAsyncHookHandler; tags: string[]; summary?: string; querystring: Q; item: T },
  list: (query: z.output<Q>, request: FastifyRequest) => Promise<Page<z.output<T>>>,
): void {
  app.get(path, { onRequest: route.onRequest, schema: pagedListSchema(route) }, (request) =>
    list(request.query as z.output<Q>, request),
  );
}

/**
 * Registers a record that each viewer reads and writes within its own scope (a buyer's campaigns and
 * deliveries): GET `path/:id`, POST `path` (201) and PUT `path/:id`, each answering the whole record.
 */
export function scopedRecordRoutes<R extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  app: ZodApp,
  path: string,
  route: { onRequest: onRequestAsyncHookHandler; tags: string[]; record: R; create: C; update: U },
  records: {
    get(viewer: Viewer, id: string): Promise<z.output<R>>;
    create(viewer: Viewer, input: z.output<C>): Promise<z.output<R>>;
    update(viewer: Viewer, id: string, changes: z.output<U>): Promise<z.output<R>>;
  },
): void {
  const { onRequest, tags, record } = route;
  // The handlers' answers are typed by `records` (checked where it is passed); the app's own inference
  // cannot follow a schema that is a type parameter, hence the untyped instance.
  const untyped = app as FastifyInstance;
  const id = (request: FastifyRequest) => (request.params as z.output<typeof idParams>).id;
  untyped.get(
    `${path}/:id`,
    { onRequest, schema: { tags, params: idParams, response: apiResponses(record) } },
    (request) => records.get(request.viewer(), id(request)),
  );
  untyped.post(
    path,
    { onRequest, schema: { tags, body: route.create, response: apiResponses(record, 201) } },
    (request, reply) => created(reply, records.create(request.viewer(), request.body as z.output<C>)),
  );
  untyped.put(
    `${path}/:id`,
    { onRequest, schema: { tags, params: idParams, body: route.update, response: apiResponses(record) } },
    (request) => records.update(request.viewer(), id(request), request.body as z.output<U>),
  );
}
