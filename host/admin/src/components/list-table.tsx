import type { ReactNode } from 'react';
import { LoadState } from './load-state.tsx';
import { Pager } from './pager.tsx';
import { SortHeader } from './sort-header.tsx';
import type { List } from './use-list.ts';

/** A column heading: plain text, or a label that sorts the list by `sortBy`. */
export type Column = string | { label: string; sortBy: string };

/**
 * A paged list as a table: the loading, error and empty states, the headings (sortable where a
 * column names its field), one row per item from `children(item)`, and the pager below.
 *
 * @example
 * <ListTable list={list} empty="No runs yet." columns={[{ label: 'Started', sortBy: 'startedAt' }, 'Mode']}>
 *   {(run) => <tr key={run.id}>…</tr>}
 * </ListTable>
 */
export function ListTable<T>({ list, empty, columns, children }: { list: List<T>; empty: ReactNode; columns: Column[]; children: (item: T) => ReactNode }) {
  return (
    <LoadState state={list.state} isEmpty={(page) => page.total === 0} empty={empty}>
      {(page) => (
        <>
          <table className="list">
            <thead>
              <tr>{columns.map((column, index) => heading(list, column, index))}</tr>
            </thead>
            <tbody>{page.items.map(children)}</tbody>
          </table>
          <Pager offset={list.offset} limit={list.limit} total={page.total} onChange={(offset) => list.set({ offset })} />
        </>
      )}
    </LoadState>
  );
}

function heading<T>(list: List<T>, column: Column, index: number): ReactNode {
  if (typeof column === 'string') return <th key={index}>{column || null}</th>;
  return <SortHeader key={index} field={column.sortBy} label={column.label} sort={list.sort} onSort={(sort) => list.set({ sort })} />;
}
