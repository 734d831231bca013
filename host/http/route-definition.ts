import type { Context } from 'koa';
import type { z } from 'zod';
import type { RouteAccess } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { AppState } from './app-state.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B> {
  params: Output<P>;
  query: Output<Q>;
  body: Output<B>;
  /** Present on every route with a permission. */
  principal: Principal | undefined;
  ctx: Context & { state: AppState };
}

/**
 * One HTTP route, declared as data: the router mounts it, and the OpenAPI document is built from
 * the same declaration, so the document cannot drift from what is served.
 */
export interface RouteDefinition<P = unknown, Q = unknown, B = unknown> {
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
  /** The success status and what it returns; `schema` absent means no body (204). */
  success: { status: number; description: string; schema?: z.ZodType };
  /** Error statuses beyond those implied by auth and validation. */
  errors?: number[];
  handle(input: RouteInput<P, Q, B>): Promise<unknown> | unknown;
}

/** Keeps the generic parameters of a route while letting a list of routes share one type. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(route: RouteDefinition<P, Q, B>): RouteDefinition {
  return route as unknown as RouteDefinition;
}
