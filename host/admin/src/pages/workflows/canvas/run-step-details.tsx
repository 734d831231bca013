import type { RunStep } from '../../../api/api-types.ts';
import { STEP_RUN_LABELS, type StepRunState } from '../flow/run-marks.ts';

/** What the drawn run did at the selected step: its inputs after evaluation, and its output or error. */
export function RunStepDetails({ state, step }: { state: StepRunState; step?: RunStep }) {
  if (!step) return <p className="run-step-details empty">The run {state === 'running' ? 'has not reached this step yet' : 'ended before this step'}.</p>;
  return (
    <section className="run-step-details" aria-label="This step in the run">
      <h3>
        In the run: <span className={`status-${step.status}`}>{STEP_RUN_LABELS[state]}</span>
        {step.reused && <small> (reused from an earlier attempt)</small>}
      </h3>
      <h4>Inputs</h4>
      <pre className="json">{JSON.stringify(step.inputs, null, 2) ?? 'not recorded'}</pre>
      {step.error ? (
        <p className="error">
          <code>{step.error.code}</code> {step.error.message}
        </p>
      ) : (
        <>
          <h4>Output</h4>
          <pre className="json">{JSON.stringify(step.output, null, 2) ?? 'no output'}</pre>
        </>
      )}
    </section>
  );
}
