import { Link } from 'react-router';
import { formatDate } from '../../components/format-date.ts';
import { ListTable, type Column } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';
import { DraftBadge } from './draft-badge.tsx';
import { CONVERSATION_ANCHOR } from './run-conversation.tsx';
import { RunFilterBar } from './run-filters.tsx';
import { ownerLabel, subscriberPath, type ListedRun } from './run-view.ts';
import { useRunFilters } from './use-run-filters.ts';
import { useWorkflowNames } from './use-workflow-names.ts';
import './runs.css';

const COLUMNS: Column[] = [{ label: 'Started', sortBy: 'startedAt' }, 'Workflow', 'Mode', { label: 'Status', sortBy: 'status' }, 'Subscriber', 'Trigger'];

/**
 * Runs: live and test runs of workflows, newest first, filtered by workflow, status, mode and
 * subscriber, and searched by subscriber name, run id or error text (all kept in the URL). A
 * failed run says why in one sentence.
 */
export function RunsPage() {
  const { filters, setFilter } = useRunFilters();
  const list = useList<ListedRun>('/api/runs', { sort: '-startedAt', filter: { ...filters } });
  const names = useWorkflowNames();
  const shown = list.state.data?.items.find((run) => run.ownerId === filters.ownerId);
  return (
    <section>
      <h1>Runs</h1>
      <RunFilterBar
        filters={filters}
        setFilter={setFilter}
        workflowNames={names}
        subscriberLabel={shown && ownerLabel(shown)}
        q={list.q}
        onSearch={(q) => list.set({ q })}
      />
      <ListTable list={list} empty={list.q || Object.keys(filters).length > 0 ? 'No run matches these filters.' : 'No runs yet.'} columns={COLUMNS}>
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
            <td>
              <span className={`status-${run.status}`}>{run.status}</span>
              {run.error && <div className="run-error-summary">{run.error.summary}</div>}
            </td>
            <td title={run.ownerId}>
              <SubscriberCell run={run} filtered={filters.ownerId === run.ownerId} onFilter={() => setFilter('ownerId', run.ownerId)} />
            </td>
            <td>{run.inboundEventId ? `event ${run.inboundEventId.slice(0, 8)}` : 'test run'}</td>
          </tr>
        )}
      </ListTable>
    </section>
  );
}

/** Who the run was for: a link to the subscriber's page, their conversation, and "only theirs". */
function SubscriberCell({ run, filtered, onFilter }: { run: ListedRun; filtered: boolean; onFilter: () => void }) {
  const label = ownerLabel(run);
  const path = subscriberPath(run);
  return (
    <>
      {path ? <Link to={path}>{label}</Link> : label}
      {run.threadId && (
        <>
          {' · '}
          <Link to={`/runs/${run.id}#${CONVERSATION_ANCHOR}`} aria-label={`Conversation of ${label}`}>
            conversation
          </Link>
        </>
      )}
      {!filtered && (
        <>
          {' · '}
          <button type="button" className="link" aria-label={`Only the runs of ${label}`} onClick={onFilter}>
            only theirs
          </button>
        </>
      )}
    </>
  );
}
