import type { Context } from 'koa';
import type { z } from 'zod';
import type { RouteAccess } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { AppState } from './app-state.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A body taken as its exact bytes (a file), not as JSON. */
export interface RawBodyOption {
  /** Larger bodies are refused with 413, without reading the rest. */
  maxBytes: number;
  /** The media types accepted (`application/gzip`); any other is refused with 415. */
  types: string[];
  /** What the bytes are, for the OpenAPI document. */
  description: string;
}

export interface RouteInput<P, Q, B, R = undefined> {
  params: Output<P>;
  query: Output<Q>;
  /** The JSON body parsed by `body`, or the raw bytes on a route with `rawBody`. */
  body: R extends RawBodyOption ? Buffer : Output<B>;
  /** Present on every route with a permission. */
  principal: Principal | undefined;
  ctx: Context & { state: AppState };
}

/**
 * One HTTP route, declared as data: the router mounts it, and the OpenAPI document is built from
 * the same declaration, so the document cannot drift from what is served.
 */
export interface RouteDefinition<P = unknown, Q = unknown, B = unknown, R extends RawBodyOption | undefined = RawBodyOption | undefined> {
  method: HttpMethod;
  /** Koa-style path, e.g. `/api/memory-definitions/:id`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** `null` marks a public route; `signed_in`, one any valid token may call. */
  permission: RouteAccess | null;
  params?: P;
  query?: Q;
  body?: B;
  /** Takes the body as bytes instead of JSON (an upload); a route declares `body` or this, not both. */
  rawBody?: R;
  /** The success status and what it returns; `schema` absent means no body (204). */
  success: { status: number; description: string; schema?: z.ZodType };
  /** Error statuses beyond those implied by auth and validation. */
  errors?: number[];
  handle(input: RouteInput<P, Q, B, R>): Promise<unknown> | unknown;
}

/** Keeps the generic parameters of a route while letting a list of routes share one type. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends RawBodyOption | undefined = undefined,
>(route: RouteDefinition<P, Q, B, R>): RouteDefinition {
  return route as unknown as RouteDefinition;
}

/** One answer of a raw route, for the document: a JSON error (the error body), or a body of `type`. */
export interface RawResponse {
  description: string;
  /** The media type of the body; absent for a JSON error body. */
  type?: string;
}

/**
 * A route that writes its own answer instead of JSON through a schema: a platform's webhook (the
 * channel's answer, replayed), a page, a file, Prometheus text. Always public: each checks a
 * credential of its own (the platform's signature, a signed link, the metrics token), so no
 * bearer token is asked for. It sits in the one route list like the others, and the OpenAPI
 * document describes it from `params`, `query`, `requestBody` and `responses`.
 */
export interface RawRouteDefinition {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  permission: null;
  /** Path parameters, described only: the handler reads `ctx.params`. */
  params?: z.ZodType;
  /** Query parameters, described only. */
  query?: z.ZodType;
  /** The body it reads itself (bytes), described only. */
  requestBody?: { description: string; types: string[] };
  responses: Record<number, RawResponse>;
  answer(ctx: Context & { state: AppState }): Promise<void> | void;
}

/** Every route the host serves: a JSON route (RouteDefinition) or one that answers by itself. */
export type HostRoute = RouteDefinition | RawRouteDefinition;

export function isRawRoute(route: HostRoute): route is RawRouteDefinition {
  return 'answer' in route;
}
