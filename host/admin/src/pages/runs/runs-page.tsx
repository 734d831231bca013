import { Link } from 'react-router';
import { formatDate } from '../../components/format-date.ts';
import { ListTable, type Column } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';
import { DraftBadge } from './draft-badge.tsx';
import { CONVERSATION_ANCHOR } from './run-conversation.tsx';
import { ownerLabel, type ListedRun } from './run-view.ts';
import { useWorkflowNames } from './use-workflow-names.ts';

const COLUMNS: Column[] = [{ label: 'Started', sortBy: 'startedAt' }, 'Workflow', 'Mode', { label: 'Status', sortBy: 'status' }, 'Subscriber', 'Trigger'];

/** Runs: live and test runs of workflows, newest first. */
export function RunsPage() {
  const list = useList<ListedRun>('/api/runs', { sort: '-startedAt', search: false });
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
              {run.draft && <DraftBadge />}
            </td>
            <td>{run.mode}</td>
            <td className={`status-${run.status}`}>{run.status}</td>
            <td title={run.ownerId}>
              {ownerLabel(run)}
              {run.threadId && (
                <>
                  {' · '}
                  <Link to={`/runs/${run.id}#${CONVERSATION_ANCHOR}`} aria-label={`Conversation of ${ownerLabel(run)}`}>
                    conversation
                  </Link>
                </>
              )}
            </td>
            <td>{run.inboundEventId ? `event ${run.inboundEventId.slice(0, 8)}` : 'test run'}</td>
          </tr>
        )}
      </ListTable>
    </section>
  );
}
