import { Link, useParams } from 'react-router';
import { useApiData } from '../../api/use-api-data.ts';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { DraftBadge } from './draft-badge.tsx';
import { RunConversation } from './run-conversation.tsx';
import { RunError } from './run-error.tsx';
import { RunFlow } from './run-flow.tsx';
import { RunSteps } from './run-steps.tsx';
import { ownerLabel, subscriberPath, type RunDetail } from './run-view.ts';
import { useWorkflowNames } from './use-workflow-names.ts';

/** One run: its trigger, input, status, steps, and the conversation it answered. */
export function RunDetailPage() {
  const { id } = useParams();
  const state = useApiData<RunDetail>(`/api/runs/${id}`);
  const names = useWorkflowNames();
  return (
    <section>
      <p>
        <Link to="/runs">← Runs</Link>
      </p>
      <LoadState state={state}>
        {(run) => (
          <>
            <h1>
              Run <code>{run.id.slice(0, 8)}</code> <span className={`status-${run.status}`}>{run.status}</span>
            </h1>
            <dl className="facts">
              <dt>Workflow</dt>
              <dd>
                <Link to={`/workflows/${run.workflowId}?version=${run.workflowVersion}`}>
                  {names.get(run.workflowId) ?? run.workflowId} v{run.workflowVersion}
                </Link>
                {run.draft && <DraftBadge />}{' '}
                ({run.mode})
              </dd>
              <dt>Trigger</dt>
              <dd>{run.inboundEventId ? `inbound event ${run.inboundEventId}` : 'test run from the admin panel'}</dd>
              <dt>Subscriber</dt>
              <dd title={run.ownerId}>{subscriberPath(run) ? <Link to={subscriberPath(run)!}>{ownerLabel(run)}</Link> : ownerLabel(run)}</dd>
              <dt>Started / finished</dt>
              <dd>
                {formatDate(run.startedAt)} / {formatDate(run.finishedAt)}
              </dd>
              <dt>Input</dt>
              <dd>
                <pre className="json">{JSON.stringify(run.input, null, 2)}</pre>
              </dd>
              {run.error && (
                <>
                  <dt>Error</dt>
                  <dd>
                    <RunError error={run.error} />
                  </dd>
                </>
              )}
            </dl>
            <h2>Steps</h2>
            <RunSteps steps={run.steps} />
            <RunFlow run={run} />
            <RunConversation messages={run.conversation} subscriber={ownerLabel(run)} />
          </>
        )}
      </LoadState>
    </section>
  );
}
