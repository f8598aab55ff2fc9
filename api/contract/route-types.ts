import type { paths } from './route-types.generated.js';

/**
 * A route's request and reply types for Fastify's route generics, taken from the types that
 * `make api-types` generates from the route schemas themselves (through the OpenAPI document),
 * so a handler's query, params and body are what its schema validated, and what it returns is
 * checked against the schema that serializes it: a presenter cannot drift from its schema.
 *
 *   app.get<RouteTypes<'/api/v1/splits', 'get'>>('/splits', { schema }, (request) => ...)
 *
 * Only the success statuses (2xx) type the reply: refusals are thrown `ApiError`s that the
 * error handler presents in the envelope.
 */
export type ApiPath = keyof paths;
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[P][M]>;
type Parameters<P extends ApiPath, M extends Method> = Operation<P, M> extends { parameters: infer T } ? T : never;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : T extends { content: infer C } ? C[keyof C] : never;
/** The envelope plugin writes `updated_at` (the emit time) on the way out: handlers never do. */
type Emitted<T> = T extends { updated_at: string } ? Omit<T, 'updated_at'> : T;
/** The 2xx bodies as the schema writes them (what goes on the wire). */
type SuccessBodies<R> = { [S in keyof R as S extends 200 | 201 | 202 | 204 ? S : never]: Json<R[S]> };
type Success<R> = { [S in keyof SuccessBodies<R>]: Emitted<SuccessBodies<R>[S]> };

export interface RouteTypes<P extends ApiPath, M extends Method = 'get'> {
  Querystring: Parameters<P, M> extends { query?: infer Q } ? ([Q] extends [never] ? unknown : NonNullable<Q>) : unknown;
  Params: Parameters<P, M> extends { path?: infer T } ? ([T] extends [never] ? unknown : NonNullable<T>) : unknown;
  Body: Operation<P, M> extends { requestBody?: infer B } ? ([B] extends [never] ? unknown : Json<NonNullable<B>>) : unknown;
  Reply: Operation<P, M> extends { responses: infer R } ? Success<R> : unknown;
}

/** The JSON body of a success answer (200 unless named) of `M P`, for presenters and query functions. */
export type ReplyOf<P extends ApiPath, M extends Method = 'get', S extends 200 | 201 | 202 = 200> = S extends keyof RouteTypes<
  P,
  M
>['Reply']
  ? RouteTypes<P, M>['Reply'][S]
  : never;

/** The query string a handler of `M P` receives: its schema's properties, defaults filled. */
export type QueryOf<P extends ApiPath, M extends Method = 'get'> = RouteTypes<P, M>['Querystring'];

/** One item of the `data` list of a success answer of `M P` (a list route's row). */
export type RowOf<P extends ApiPath, M extends Method = 'get'> = ReplyOf<P, M> extends { data: ReadonlyArray<infer R> } ? R : never;

// Routes that answer another status with a body (/health's 503), or rows serialized ahead (/odds).

type BodyAt<P extends ApiPath, M extends Method, S extends number> =
  Operation<P, M> extends { responses: infer R } ? (S extends keyof R ? Emitted<Json<R[S]>> : never) : never;

/** `RouteTypes` of a route that also answers status `S` with a body of its schema (/health's 503 is a health report too). */
export type RouteTypesWithStatus<P extends ApiPath, S extends number, M extends Method = 'get'> = Omit<RouteTypes<P, M>, 'Reply'> & {
  Reply: RouteTypes<P, M>['Reply'] & { [K in S]: BodyAt<P, M, K> };
};

/** A 200 answer of `M P` whose `data` may also be `D` (rows already serialized, spliced in by the route's serializer). */
export type ReplyWithData<P extends ApiPath, D, M extends Method = 'get'> = Omit<ReplyOf<P, M>, 'data'> & {
  data: ReplyOf<P, M> extends { data: infer T } ? T | D : D;
};

/** `RouteTypes` of a route whose 200 answer is a `ReplyWithData`. */
export type RouteTypesWithData<P extends ApiPath, D, M extends Method = 'get'> = Omit<RouteTypes<P, M>, 'Reply'> & {
  Reply: { 200: ReplyWithData<P, D, M> };
};

// Routes outside the envelope plugin.

/**
 * The route generics of a route outside the envelope plugin (sign-in: `/session` answers before
 * any key is known), whose handlers write `updated_at` themselves.
 */
export type UnenvelopedRouteTypes<P extends ApiPath, M extends Method = 'get'> = Omit<RouteTypes<P, M>, 'Reply'> & {
  Reply: Operation<P, M> extends { responses: infer R } ? SuccessBodies<R> : unknown;
};

// Routes whose 200 is JSON or CSV text (format=csv).

/**
 * The list answer of `M P` when its 200 has another JSON shape beside it (format=csv asked for
 * as JSON: `{ success, data: "<csv>" }`): the member whose `data` is a list.
 */
export type ListReplyOf<P extends ApiPath, M extends Method = 'get'> = Extract<ReplyOf<P, M>, { data: ReadonlyArray<unknown> }>;

/** One item of the `data` list of `ListReplyOf<P, M>`. */
export type ListRowOf<P extends ApiPath, M extends Method = 'get'> = ListReplyOf<P, M> extends { data: ReadonlyArray<infer R> } ? R : never;

/**
 * `RouteTypes` of a route whose 200 may also be text (format=csv as text/csv): the generated
 * types hold the JSON bodies only, so the text reply is added beside them.
 */
export type RouteTypesWithText<P extends ApiPath, M extends Method = 'get'> = Omit<RouteTypes<P, M>, 'Reply'> & {
  Reply: { 200: ReplyOf<P, M> | string };
};
