import { useState } from 'react';
import { Link } from 'react-router';
import { withQuery } from '../../api/api-client.ts';
import type { MemoryDefinition, Page } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { useSession } from '../../auth/session-context.tsx';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { Pager } from '../../components/pager.tsx';
import { SortHeader } from '../../components/sort-header.tsx';
import { useListQuery } from '../../components/use-list-query.ts';
import { DeleteDefinitionDialog } from './delete-definition-dialog.tsx';
import { formatTtl } from './format-ttl.ts';

/** Workflows > Memory: the memory definitions, searchable, sortable, paged. */
export function MemoryListPage() {
  const { can } = useSession();
  const list = useListQuery('name');
  const state = useApiData<Page<MemoryDefinition>>(
    withQuery('/api/memory-definitions', { q: list.q, sort: list.sort, limit: list.limit, offset: list.offset }),
  );
  const [deleting, setDeleting] = useState<MemoryDefinition>();
  const header = (field: string, label: string) => <SortHeader field={field} label={label} sort={list.sort} onSort={(sort) => list.set({ sort })} />;
  return (
    <section>
      <header className="page-header">
        <h1>Memory</h1>
        {can('memory_definition:create') ? (
          <Link className="button" to="/workflows/memory/new">
            New definition
          </Link>
        ) : (
          <button type="button" disabled title="Your role cannot create memory definitions">
            New definition
          </button>
        )}
      </header>
      <input type="search" aria-label="Search memory definitions" placeholder="Search name or slug" defaultValue={list.q} onChange={(e) => list.set({ q: e.target.value })} />
      <LoadState state={state} isEmpty={(page) => page.total === 0} empty={list.q ? `No memory definition matches "${list.q}".` : 'No memory definitions yet.'}>
        {(page) => (
          <>
            <table className="list">
              <thead>
                <tr>
                  {header('name', 'Name')}
                  {header('slug', 'Slug')}
                  {header('scope', 'Scope')}
                  {header('ttlSeconds', 'TTL')}
                  {header('createdAt', 'Created')}
                  {header('updatedAt', 'Updated')}
                  <th />
                </tr>
              </thead>
              <tbody>
                {page.items.map((definition) => (
                  <tr key={definition.id}>
                    <td>
                      <Link to={`/workflows/memory/${definition.id}`}>{definition.name}</Link>
                    </td>
                    <td>
                      <code>{definition.slug}</code>
                    </td>
                    <td>{definition.scope}</td>
                    <td>{formatTtl(definition.ttlSeconds)}</td>
                    <td>{formatDate(definition.createdAt)}</td>
                    <td>{formatDate(definition.updatedAt)}</td>
                    <td>
                      <button type="button" className="danger" disabled={!can('memory_definition:delete')} onClick={() => setDeleting(definition)}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={list.offset} limit={list.limit} total={page.total} onChange={(offset) => list.set({ offset })} />
          </>
        )}
      </LoadState>
      {deleting && (
        <DeleteDefinitionDialog
          definition={deleting}
          onClose={(deleted) => {
            setDeleting(undefined);
            if (deleted) state.reload();
          }}
        />
      )}
    </section>
  );
}
