import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';

/** Serves the document built from every other route (it lists itself too). */
export function openApiRoute(getDocument: () => Record<string, unknown>): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/api/openapi.json',
    operationId: 'openApi',
    summary: 'This OpenAPI document',
    tag: 'meta',
    permission: null,
    success: { status: 200, description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) },
    handle: () => getDocument(),
  });
}
