import type { RunStep } from '../../api/api-types.ts';
import { RunError } from './run-error.tsx';

/** A run's steps in order: inputs after evaluation, output, or the error in plain words. */
export function RunSteps({ steps }: { steps: RunStep[] }) {
  if (steps.length === 0) return <p className="empty">No step ran.</p>;
  return (
    <ol className="steps" aria-label="Steps">
      {steps.map((step) => (
        <li key={step.position} data-task={step.task}>
          <strong>{step.task}</strong> <code>{step.action}</code> <span className={`status-${step.status}`}>{step.status}</span>
          {step.reused && <small> (reused)</small>}
          <details>
            <summary>Inputs</summary>
            <pre className="json">{JSON.stringify(step.inputs, null, 2)}</pre>
          </details>
          {step.error ? (
            <RunError error={step.error} />
          ) : (
            <div className="step-output">
              Output
              <pre className="json">{JSON.stringify(step.output, null, 2) ?? 'no output'}</pre>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
