import { lazy, Suspense } from 'react';
import { withQuery } from '../../api/api-client.ts';
import type { Workflow } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { LoadState } from '../../components/load-state.tsx';
import type { RunDetail } from './run-view.ts';

// The flow view parses YAML: loaded when a run is shown, not with the runs list.
const FlowView = lazy(() => import('../workflows/flow/flow-view.tsx').then((module) => ({ default: module.FlowView })));

/**
 * The run drawn on the flow of the workflow version it ran: each step's outcome, the branch each
 * condition took, and a step's inputs and output on click. A draft run ran unsaved text: it is
 * drawn on the version it was edited from, and says so.
 */
export function RunFlow({ run }: { run: RunDetail }) {
  const state = useApiData<Workflow>(withQuery(`/api/workflows/${run.workflowId}`, { version: String(run.workflowVersion) }));
  return (
    <section className="run-flow" aria-label="The run on the flow">
      <h2>Flow</h2>
      {run.draft && <p className="notice">This run ran an unsaved draft; it is drawn on version {run.workflowVersion}, which the draft was edited from.</p>}
      <LoadState state={state}>
        {(workflow) => (
          <Suspense fallback={<p className="flow-loading">Drawing the flow…</p>}>
            <FlowView yaml={workflow.yaml} run={run} />
          </Suspense>
        )}
      </LoadState>
    </section>
  );
}
