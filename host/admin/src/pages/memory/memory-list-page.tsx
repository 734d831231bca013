import { useState } from 'react';
import { Link } from 'react-router';
import type { MemoryDefinition } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { CreateLink } from '../../components/create-link.tsx';
import { formatDate } from '../../components/format-date.ts';
import { ListTable, type Column } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';
import { DeleteDefinitionDialog } from './delete-definition-dialog.tsx';
import { formatTtl } from './format-ttl.ts';

const COLUMNS: Column[] = [
  { label: 'Name', sortBy: 'name' },
  { label: 'Slug', sortBy: 'slug' },
  { label: 'Scope', sortBy: 'scope' },
  { label: 'TTL', sortBy: 'ttlSeconds' },
  { label: 'Created', sortBy: 'createdAt' },
  { label: 'Updated', sortBy: 'updatedAt' },
  '',
];

/** Workflows > Memory: the memory definitions, searchable, sortable, paged. */
export function MemoryListPage() {
  const { can } = useSession();
  const list = useList<MemoryDefinition>('/api/memory-definitions', { sort: 'name' });
  const [deleting, setDeleting] = useState<MemoryDefinition>();
  return (
    <section>
      <header className="page-header">
        <h1>Memory</h1>
        <CreateLink to="/workflows/memory/new" permission="memory_definition:create" deniedTitle="Your role cannot create memory definitions">
          New definition
        </CreateLink>
      </header>
      <input type="search" aria-label="Search memory definitions" placeholder="Search name or slug" defaultValue={list.q} onChange={(e) => list.set({ q: e.target.value })} />
      <ListTable list={list} empty={list.q ? `No memory definition matches "${list.q}".` : 'No memory definitions yet.'} columns={COLUMNS}>
        {(definition) => (
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
        )}
      </ListTable>
      {deleting && (
        <DeleteDefinitionDialog
          definition={deleting}
          onClose={(deleted) => {
            setDeleting(undefined);
            if (deleted) list.state.reload();
          }}
        />
      )}
    </section>
  );
}
