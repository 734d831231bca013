import { z } from 'zod';

export const MAX_PAGE_SIZE = 200;

/**
 * The query every list route takes: `limit`, `offset`, `sort` (`field` or `-field`, one of the
 * route's sortable fields) and `q` (search). Extend it with route-specific filters.
 */
export function listQuerySchema<const F extends readonly [string, ...string[]]>(sortable: F, defaultSort: string) {
  const sortValues = sortable.flatMap((field) => [field, `-${field}`]) as [string, ...string[]];
  return z.object({
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50).describe('Page size (1-200)'),
    offset: z.coerce.number().int().min(0).default(0).describe('Items to skip'),
    sort: z
      .enum(sortValues)
      .default(defaultSort)
      .describe(`One of ${sortable.join(', ')}; prefix with - for descending`),
    q: z.string().trim().max(200).optional().describe('Case-insensitive search'),
  });
}

/** `-createdAt` → `{ field: 'createdAt', direction: 'desc' }`. */
export function parseSort(sort: string): { field: string; direction: 'asc' | 'desc' } {
  return sort.startsWith('-') ? { field: sort.slice(1), direction: 'desc' } : { field: sort, direction: 'asc' };
}

/** Escapes `%`, `_` and `\` so user text matches literally inside ILIKE. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The shape of every list response. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

export interface Page<T> {
  items: T[];
  total: number;
}
