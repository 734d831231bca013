import { useState, type FormEvent } from 'react';
import type { FlowStep } from '../flow/flow-graph.ts';
import { asJsonata, type BranchParts } from './yaml-edits.ts';

export interface AddBranchFormProps {
  step: FlowStep;
  /** The step's inputs as written, to start the branches from. */
  inputs: Record<string, unknown>;
  onAdd: (input: string, parts: BranchParts) => void;
  onClose: () => void;
}

/**
 * Makes one input of the selected step depend on a condition. The flow is a straight line of
 * steps; a branch is an input whose value is chosen by a test, written as JSONata's conditional
 * `=<test> ? <then> : <else>` and drawn as a diamond. Both values start as the input's current
 * value, so the author changes only what differs.
 */
export function AddBranchForm({ step, inputs, onAdd, onClose }: AddBranchFormProps) {
  const names = Object.keys(inputs);
  const [input, setInput] = useState(names[0] ?? '');
  const current = asJsonata(inputs[input]);
  const [parts, setParts] = useState<BranchParts>({ test: '$exists($input.text)', then: current, else: current });
  const choose = (name: string) => {
    setInput(name);
    setParts((earlier) => ({ ...earlier, then: asJsonata(inputs[name]), else: asJsonata(inputs[name]) }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input) onAdd(input, parts);
  };
  const part = (key: keyof BranchParts, label: string) => (
    <label>
      {label}
      <input className="canvas-code" value={parts[key]} onChange={(event) => setParts({ ...parts, [key]: event.target.value })} spellCheck={false} />
    </label>
  );
  return (
    <form className="canvas-palette" aria-label="Add a branch" onSubmit={submit}>
      <header>
        <h3>Add a branch to {step.task}</h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <p className="canvas-explain">
        The input becomes <code>=test ? then : else</code>: the value after <code>?</code> when the test holds, else the one after <code>:</code> (all three are JSONata).
      </p>
      {names.length === 0 ? (
        <p className="empty">This step has no inputs to branch on yet.</p>
      ) : (
        <>
          <label>
            Input
            <select value={input} onChange={(event) => choose(event.target.value)}>
              {names.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </label>
          {part('test', 'Test')}
          {part('then', 'Then')}
          {part('else', 'Else')}
          <button type="submit" className="primary">
            Add the branch
          </button>
        </>
      )}
    </form>
  );
}
