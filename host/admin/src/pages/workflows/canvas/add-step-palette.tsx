import { useState } from 'react';
import { ACTION_NAMES, type ActionName } from '../../../../../workflows/runtime/action-specs.ts';
import { actionDescription } from '../editor/action-docs.ts';
import type { FlowStep } from '../flow/flow-graph.ts';

export interface AddStepPaletteProps {
  steps: FlowStep[];
  /** Where the new step goes by default: after the selected step, else at the end. */
  defaultPosition: number;
  onAdd: (action: ActionName, position: number) => void;
  onClose: () => void;
}

/**
 * The palette of actions: picking one adds a step running it (a new task def with the action's
 * required inputs, and its place in the flow).
 */
export function AddStepPalette({ steps, defaultPosition, onAdd, onClose }: AddStepPaletteProps) {
  const [position, setPosition] = useState(defaultPosition);
  return (
    <section className="canvas-palette" role="dialog" aria-label="Add a step">
      <header>
        <h3>Add a step</h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <label>
        Where
        <select value={position} onChange={(event) => setPosition(Number(event.target.value))}>
          <option value={0}>At the start</option>
          {steps.map((step) => (
            <option key={step.position} value={step.position + 1}>
              After {step.position + 1}. {step.task}
            </option>
          ))}
        </select>
      </label>
      <ul className="canvas-actions" aria-label="Actions">
        {ACTION_NAMES.map((action) => (
          <li key={action}>
            <button type="button" onClick={() => onAdd(action, position)}>
              <code>{action}</code>
            </button>
            <small>{actionDescription(action)}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
