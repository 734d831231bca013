import { Link } from 'react-router';
import type { WorkflowSummary } from '../../api/api-types.ts';
import { CreateLink } from '../../components/create-link.tsx';
import { formatDate } from '../../components/format-date.ts';
import { ListTable } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';

/** Workflows: their current versions, searchable by name. */
export function WorkflowsPage() {
  const list = useList<WorkflowSummary>('/api/workflows', { sort: 'name' });
  return (
    <section>
      <header className="page-header">
        <h1>Workflows</h1>
        <CreateLink to="/workflows/new" permission="workflow:create">
          New workflow
        </CreateLink>
      </header>
      <input type="search" aria-label="Search workflows" placeholder="Search name" defaultValue={list.q} onChange={(e) => list.set({ q: e.target.value })} />
      <ListTable list={list} empty="No workflows yet." columns={[{ label: 'Name', sortBy: 'name' }, 'Version', 'Created', 'Updated']}>
        {(workflow) => (
          <tr key={workflow.id}>
            <td>
              <Link to={`/workflows/${workflow.id}`}>{workflow.name}</Link>
            </td>
            <td>v{workflow.version}</td>
            <td>{formatDate(workflow.createdAt)}</td>
            <td>{formatDate(workflow.updatedAt)}</td>
          </tr>
        )}
      </ListTable>
    </section>
  );
}
