import { z } from 'zod';
import { ERROR_CODES } from '../errors/error-codes.ts';
import { isRawRoute, type HostRoute, type RawRouteDefinition, type RouteDefinition } from '../http/route-definition.ts';

type JsonSchema = Record<string, unknown>;

const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        message: { type: 'string' },
        details: {},
      },
    },
  },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed JSON body',
  401: 'Missing or invalid bearer token',
  403: "The token's role lacks the permission",
  404: 'Not found',
  409: 'Conflicts with existing data',
  413: 'Body too large',
  415: 'Body of a media type the route does not accept',
  422: 'Input fails validation',
  503: 'Not available right now',
};

/**
 * The OpenAPI 3.1 document of the given routes, built from the same declarations the router
 * mounts. Each protected operation names its permission in `x-permission`.
 */
export function buildOpenApi(routes: HostRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const openApiPath = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[openApiPath] ??= {})[route.method.toLowerCase()] = isRawRoute(route) ? rawOperation(route) : operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'bot host admin API', version },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: ERROR_BODY },
    },
    paths,
  };
}

function operation(route: RouteDefinition): JsonSchema {
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.permission ? { security: [{ bearer: [] }], 'x-permission': route.permission } : { security: [] }),
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...requestBody(route),
    responses: responses(route),
  };
}

/** A route that answers by itself: public, its parameters, the bytes it reads, and its answers by media type. */
function rawOperation(route: RawRouteDefinition): JsonSchema {
  const body = route.requestBody;
  const bytes = { schema: { type: 'string', format: 'binary' } };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: [],
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(body ? { requestBody: { required: false, description: body.description, content: Object.fromEntries(body.types.map((type) => [type, bytes])) } } : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, { description, type }]) => [
        status,
        { description, content: type === undefined ? { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } : { [type]: { schema: { type: 'string' } } } },
      ]),
    ),
  };
}

function requestBody(route: RouteDefinition): JsonSchema {
  if (route.rawBody) {
    const { description, maxBytes, types } = route.rawBody;
    const file = { schema: { type: 'string', format: 'binary' } };
    return { requestBody: { required: true, description: `${description}, at most ${maxBytes} bytes`, content: Object.fromEntries(types.map((type) => [type, file])) } };
  }
  return route.body ? { requestBody: { required: true, content: jsonContent(route.body as z.ZodType, 'input') } } : {};
}

function parameters(schema: unknown, location: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toJsonSchema(schema as z.ZodType, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

function responses(route: RouteDefinition): JsonSchema {
  const result: JsonSchema = {
    [route.success.status]: {
      description: route.success.description,
      ...(route.success.schema ? { content: jsonContent(route.success.schema, 'output') } : {}),
    },
  };
  const statuses = new Set(route.errors ?? []);
  if (route.permission) [401, 403].forEach((status) => statuses.add(status));
  if (route.params || route.query || route.body) statuses.add(422);
  if (route.body) [400, 413, 415].forEach((status) => statuses.add(status));
  if (route.rawBody) [413, 415].forEach((status) => statuses.add(status));
  for (const status of [...statuses].sort()) {
    result[status] = {
      description: STATUS_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return result;
}

function jsonContent(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return { 'application/json': { schema: toJsonSchema(schema, io) } };
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return json;
}
