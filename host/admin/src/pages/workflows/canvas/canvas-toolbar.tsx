import { useState } from 'react';
import type { FlowStep } from '../flow/flow-graph.ts';
import { AddBranchForm } from './add-branch-form.tsx';
import { AddStepPalette } from './add-step-palette.tsx';
import { addBranch, addStep, taskInputs } from './yaml-edits.ts';

export interface CanvasToolbarProps {
  yaml: string;
  steps: FlowStep[];
  selected?: number;
  /** Applies an edit computed from the current text; false when it could not be made. */
  apply: (change: (yaml: string) => string) => boolean;
  onSelect: (position: number) => void;
  problem?: string;
}

/** "Add step" (a palette of actions) and "Add branch" (a conditional input of the selected step). */
export function CanvasToolbar({ yaml, steps, selected, apply, onSelect, problem }: CanvasToolbarProps) {
  const [open, setOpen] = useState<'step' | 'branch'>();
  const step = selected === undefined ? undefined : steps[selected];
  const close = () => setOpen(undefined);
  return (
    <div className="canvas-toolbar">
      <p className="actions">
        <button type="button" aria-expanded={open === 'step'} onClick={() => setOpen(open === 'step' ? undefined : 'step')}>
          Add step
        </button>
        <button type="button" aria-expanded={open === 'branch'} disabled={!step?.action} title={step ? undefined : 'Select a step first'} onClick={() => setOpen(open === 'branch' ? undefined : 'branch')}>
          Add branch
        </button>
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {open === 'step' && (
        <AddStepPalette
          steps={steps}
          defaultPosition={selected === undefined ? steps.length : selected + 1}
          onClose={close}
          onAdd={(action, position) => {
            if (apply((text) => addStep(text, action, position).yaml)) {
              close();
              onSelect(position);
            }
          }}
        />
      )}
      {open === 'branch' && step && (
        <AddBranchForm
          key={step.task}
          step={step}
          inputs={taskInputs(yaml, step.task)}
          onClose={close}
          onAdd={(input, parts) => {
            if (apply((text) => addBranch(text, step.task, input, parts))) close();
          }}
        />
      )}
    </div>
  );
}
