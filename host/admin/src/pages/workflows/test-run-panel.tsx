import { useState, type FormEvent } from 'react';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { TestRun, Workflow } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { RunSteps } from '../runs/run-steps.tsx';

/**
 * Runs what the editor shows on a sample message: each step's output and the messages it would
 * send. When the editor's `yaml` differs from the shown version's, that unsaved draft is run (sent
 * as `yaml`, saved nowhere); otherwise the shown version. `onFinished` hears the position in `flow`
 * of the step that failed after each run (undefined when none did): the position, not the task,
 * since a task may appear twice in a flow.
 */
export function TestRunPanel({ workflow, yaml, onFinished }: { workflow: Workflow; yaml: string; onFinished?: (failingPosition: number | undefined) => void }) {
  const { can } = useSession();
  const [text, setText] = useState('hello');
  const [ownerId, setOwnerId] = useState('');
  const [state, setState] = useState<{ running: boolean; run?: TestRun; error?: string }>({ running: false });
  const isDraft = yaml !== workflow.yaml;
  const run = async (event: FormEvent) => {
    event.preventDefault();
    setState({ running: true });
    try {
      const body = { input: { text }, ...(isDraft ? { yaml } : { version: workflow.version }), ...(ownerId ? { ownerId } : {}) };
      const finished = await api.post<TestRun>(`/api/workflows/${workflow.id}/runs`, body);
      setState({ running: false, run: finished });
      onFinished?.(failingPositionOf(finished));
    } catch (error) {
      setState({ running: false, error: errorMessage(error) });
    }
  };
  return (
    <section aria-label="Test run">
      <h2>Test run ({isDraft ? 'unsaved draft' : `v${workflow.version}`})</h2>
      <form className="form" onSubmit={run}>
        <label>
          Message
          <input name="testText" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <label>
          Test owner <small>(memory owner test:&lt;name&gt;)</small>
          <input name="ownerId" value={ownerId} placeholder="you" onChange={(e) => setOwnerId(e.target.value)} />
        </label>
        <button type="submit" disabled={!can('run:create') || state.running}>
          {state.running ? 'Running…' : 'Run test'}
        </button>
      </form>
      {state.error && <p className="error" role="alert">{state.error}</p>}
      {state.run && <TestRunResult run={state.run} />}
    </section>
  );
}

function TestRunResult({ run }: { run: TestRun }) {
  return (
    <div className="test-run-result" data-status={run.status}>
      <p className="test-run-of">Ran {run.draft ? 'the unsaved draft' : `v${run.workflowVersion}`}</p>
      <p>
        Status: <strong className={`status-${run.status}`}>{run.status}</strong>
        {run.error && ` — ${run.error.message}`}
      </p>
      <h3>Steps</h3>
      <RunSteps steps={run.steps} />
      <h3>Messages it would send</h3>
      {run.messages.length === 0 ? (
        <p className="empty">No message.</p>
      ) : (
        <ol className="messages" aria-label="Messages">
          {run.messages.map((message, index) => (
            <li key={index}>
              <pre className="json">{JSON.stringify(message, null, 2)}</pre>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The position of the run's failed step; a failed run with no failed step blames none. */
function failingPositionOf(run: TestRun): number | undefined {
  return run.steps.find((step) => step.status === 'failed')?.position;
}
