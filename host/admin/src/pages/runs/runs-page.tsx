import { Link } from 'react-router';
import type { Run } from '../../api/api-types.ts';
import { formatDate } from '../../components/format-date.ts';
import { ListTable, type Column } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';
import { useWorkflowNames } from './use-workflow-names.ts';

const COLUMNS: Column[] = [{ label: 'Started', sortBy: 'startedAt' }, 'Workflow', 'Mode', { label: 'Status', sortBy: 'status' }, 'Owner', 'Trigger'];

/** Runs: live and test runs of workflows, newest first. */
export function RunsPage() {
  const list = useList<Run>('/api/runs', { sort: '-startedAt', search: false });
  const names = useWorkflowNames();
  return (
    <section>
      <h1>Runs</h1>
      <ListTable list={list} empty="No runs yet." columns={COLUMNS}>
        {(run) => (
          <tr key={run.id}>
            <td>
              <Link to={`/runs/${run.id}`}>{formatDate(run.startedAt)}</Link>
            </td>
            <td>
              {names.get(run.workflowId) ?? run.workflowId} v{run.workflowVersion}
            </td>
            <td>{run.mode}</td>
            <td className={`status-${run.status}`}>{run.status}</td>
            <td>{run.ownerId}</td>
            <td>{run.inboundEventId ? `event ${run.inboundEventId.slice(0, 8)}` : 'test run'}</td>
          </tr>
        )}
      </ListTable>
    </section>
  );
}
