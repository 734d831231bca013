import { randomUUID } from 'node:crypto';

/** One method + path of the OpenAPI document, with the permission it declares (if any). */
export interface Operation {
  method: string;
  /** The OpenAPI path, e.g. `/api/sources/{id}`. */
  path: string;
  /** `x-permission`; undefined on an operation that declares none. */
  permission: string | undefined;
  hasBody: boolean;
  /** `METHOD /path`, how failures and the coverage check name it. */
  key: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { 'x-permission'?: string; requestBody?: unknown }>>;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: unknown): Operation[] {
  const { paths } = document as OpenApiDocument;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      permission: operation['x-permission'],
      hasBody: operation.requestBody !== undefined,
      key: `${method.toUpperCase()} ${path}`,
    })),
  );
}

/**
 * A URL for the operation with every `{param}` filled with a syntactically valid value that
 * names nothing stored: a random UUID for ids, a random word for names. Random values keep
 * allowed calls free of side effects (DELETE answers 404, enable answers 404).
 */
export function urlFor(operation: Operation): string {
  return operation.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) =>
    name.toLowerCase().endsWith('id') ? randomUUID() : `no-such-${name}-${randomUUID().slice(0, 8)}`,
  );
}
