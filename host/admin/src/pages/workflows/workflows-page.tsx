import { Link } from 'react-router';
import { withQuery } from '../../api/api-client.ts';
import type { Page, WorkflowSummary } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { useSession } from '../../auth/session-context.tsx';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { Pager } from '../../components/pager.tsx';
import { SortHeader } from '../../components/sort-header.tsx';
import { useListQuery } from '../../components/use-list-query.ts';

/** Workflows: their current versions, searchable by name. */
export function WorkflowsPage() {
  const { can } = useSession();
  const list = useListQuery('name');
  const state = useApiData<Page<WorkflowSummary>>(withQuery('/api/workflows', { q: list.q, sort: list.sort, limit: list.limit, offset: list.offset }));
  return (
    <section>
      <header className="page-header">
        <h1>Workflows</h1>
        {can('workflow:create') ? (
          <Link className="button" to="/workflows/new">
            New workflow
          </Link>
        ) : (
          <button type="button" disabled>
            New workflow
          </button>
        )}
      </header>
      <input type="search" aria-label="Search workflows" placeholder="Search name" defaultValue={list.q} onChange={(e) => list.set({ q: e.target.value })} />
      <LoadState state={state} isEmpty={(page) => page.total === 0} empty="No workflows yet.">
        {(page) => (
          <>
            <table className="list">
              <thead>
                <tr>
                  <SortHeader field="name" label="Name" sort={list.sort} onSort={(sort) => list.set({ sort })} />
                  <th>Version</th>
                  <th>Created</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((workflow) => (
                  <tr key={workflow.id}>
                    <td>
                      <Link to={`/workflows/${workflow.id}`}>{workflow.name}</Link>
                    </td>
                    <td>v{workflow.version}</td>
                    <td>{formatDate(workflow.createdAt)}</td>
                    <td>{formatDate(workflow.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={list.offset} limit={list.limit} total={page.total} onChange={(offset) => list.set({ offset })} />
          </>
        )}
      </LoadState>
    </section>
  );
}
