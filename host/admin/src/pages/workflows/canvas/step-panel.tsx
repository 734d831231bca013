import type { FlowStep } from '../flow/flow-graph.ts';
import { stepRunState, type DrawnRun } from '../flow/run-marks.ts';
import { RunStepDetails } from './run-step-details.tsx';
import { StepInputsForm } from './step-inputs-form.tsx';

export interface StepPanelProps {
  yaml: string;
  step: FlowStep;
  run?: DrawnRun;
  /** Present when the workflow may be edited: the panel then holds the inputs form. */
  onEdit?: (change: (yaml: string) => string) => void;
  onClose: () => void;
}

/** Beside the flow, the selected step: what the drawn run did there, and its inputs as a form. */
export function StepPanel({ yaml, step, run, onEdit, onClose }: StepPanelProps) {
  const ran = run && stepRunState(run, step.position);
  return (
    <aside className="canvas-step-panel" aria-label={`Step ${step.position + 1}, ${step.task}`}>
      <header>
        <h3>
          {step.position + 1}. {step.task} {step.action && <code>{step.action}</code>}
        </h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {ran && <RunStepDetails state={ran.state} step={ran.step} />}
      {onEdit && <StepInputsForm yaml={yaml} step={step} onEdit={onEdit} />}
    </aside>
  );
}
