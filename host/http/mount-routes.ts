import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Authenticator } from '../auth/authenticator.ts';
import { AppError } from '../errors/app-error.ts';
import { findUnstorableText } from '../json/find-unstorable-text.ts';
import type { AppState } from './app-state.ts';
import { readFileBody } from './read-file-body.ts';
import { readJsonBody } from './read-json-body.ts';
import { isRawRoute, type HostRoute, type RouteDefinition } from './route-definition.ts';

export interface MountOptions {
  authenticator: Authenticator;
  maxBodyBytes: number;
}

/**
 * Registers each route: authenticate, authorise, read and validate input, handle, respond. A raw
 * route answers by itself (it is public and reads its own input).
 */
export function mountRoutes(router: Router<AppState>, routes: HostRoute[], options: MountOptions): void {
  for (const route of routes) {
    if (isRawRoute(route)) {
      router.register(route.path, [route.method], (ctx) => route.answer(ctx));
      continue;
    }
    router.register(route.path, [route.method], async (ctx) => {
      const principal = route.permission ? await options.authenticator.authorize(ctx, route.permission) : undefined;
      const params = parseInput(route.params, ctx.params, 'path');
      const query = parseInput(route.query, ctx.query, 'query');
      const body = await readBody(route, ctx, options.maxBodyBytes);
      const result = await route.handle({ params, query, body, principal, ctx });
      ctx.status = route.success.status;
      if (route.success.schema) ctx.body = result;
    });
  }
}

/** The JSON body validated by the route's schema, the bytes of a file body, or nothing. */
async function readBody(route: RouteDefinition, ctx: Context, maxBodyBytes: number): Promise<never> {
  if (route.rawBody) return (await readFileBody(ctx, route.rawBody)) as never;
  const json = route.body ? await readJsonBody(ctx, maxBodyBytes) : undefined;
  return parseInput(route.body, json ?? {}, 'body');
}

/**
 * PostgreSQL refuses text with a NUL character or an unpaired surrogate (in a text column, a
 * jsonb value, even a search parameter), so such input is a 422 here rather than a failed query.
 */
function refuseUnstorable(value: unknown, location: 'path' | 'query' | 'body'): void {
  const path = findUnstorableText(value);
  if (path === undefined) return;
  const message = 'holds a NUL character or an unpaired surrogate, which cannot be stored';
  throw new AppError('BOT_ERR_HTTP_VALIDATION', `Invalid ${location}: ${path || location} ${message}`, {
    location,
    issues: [{ path, message }],
  });
}

function parseInput(schema: unknown, value: unknown, location: 'path' | 'query' | 'body'): never {
  if (!schema) return undefined as never;
  refuseUnstorable(value, location);
  const result = (schema as z.ZodType).safeParse(value);
  if (result.success) return result.data as never;
  throw new AppError('BOT_ERR_HTTP_VALIDATION', `Invalid ${location}: ${result.error.issues[0]?.message ?? 'invalid'}`, {
    location,
    issues: result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  });
}
