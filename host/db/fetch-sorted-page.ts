import type { Knex } from 'knex';
import { parseSort, type Page } from '../http/list-query.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path id can be a row id at all; anything else is simply not found (never a SQL error). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Filters `column` (a uuid) by a query-string id; an id that cannot exist matches nothing, never a SQL error. */
export function whereUuid(builder: Knex.QueryBuilder, column: string, id: string): void {
  if (isUuid(id)) builder.where(column, id);
  else builder.whereRaw('false');
}

export interface SortedPageOptions {
  /** Sortable API field → the SQL it sorts by; unknown fields sort by `fallback`. */
  sortSql: Record<string, string>;
  fallback: string;
  sort: string;
  limit: number;
  offset: number;
}

/**
 * One page of a filtered query and the total it pages through. Ties are broken by id, so pages
 * never overlap or skip rows.
 */
export async function fetchSortedPage<Row>(filtered: Knex.QueryBuilder, options: SortedPageOptions): Promise<Page<Row>> {
  const { field, direction } = parseSort(options.sort);
  const column = options.sortSql[field] ?? options.fallback;
  const [rows, [counted]] = await Promise.all([
    filtered.clone().select('*').orderByRaw(`${column} ${direction}, id ${direction}`).limit(options.limit).offset(options.offset),
    filtered.clone().count<{ count: number }[]>({ count: '*' }),
  ]);
  return { items: rows as Row[], total: Number(counted?.count ?? 0) };
}
