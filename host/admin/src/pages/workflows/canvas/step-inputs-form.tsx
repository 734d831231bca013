import { useMemo } from 'react';
import { actionInputsSchema } from '../editor/action-docs.ts';
import type { FlowStep } from '../flow/flow-graph.ts';
import { InputField } from './input-field.tsx';
import { useMemoryDefinitions } from './use-memory-definitions.ts';
import { setTaskInput, taskInputs } from './yaml-edits.ts';

export interface StepInputsFormProps {
  yaml: string;
  step: FlowStep;
  /** Applies an edit of the YAML made from the text it is given (the editor makes it one undo step). */
  onEdit: (change: (yaml: string) => string) => void;
}

/**
 * The inputs of the selected step's task as a form generated from its action's input spec
 * (required ones first, then the optional ones, then any the action does not take). Each change
 * is written to the task def in the YAML.
 */
export function StepInputsForm({ yaml, step, onEdit }: StepInputsFormProps) {
  const definitions = useMemoryDefinitions();
  const values = useMemo(() => taskInputs(yaml, step.task), [yaml, step.task]);
  if (!step.action) return <p className="empty">This step names no task def yet: write it under `defs` in the YAML.</p>;
  const spec = actionInputsSchema({}, step.action);
  const specified = Object.keys(spec.properties ?? {});
  const names = [...specified, ...Object.keys(values).filter((name) => !specified.includes(name))];
  const write = (input: string, value: unknown) => onEdit((text) => setTaskInput(text, step.task, input, value));
  return (
    <form className="canvas-inputs" aria-label={`Inputs of ${step.task}`} onSubmit={(event) => event.preventDefault()}>
      {names.map((name) => (
        <InputField
          key={`${step.task}.${name}`}
          name={name}
          schema={spec.properties?.[name] ?? { description: `Not an input of ${step.action}: saving reports it.` }}
          required={spec.required?.includes(name) ?? false}
          value={values[name]}
          onCommit={(value) => write(name, value)}
          place={() => ({ yaml, task: step.task, input: name, definitions })}
        />
      ))}
    </form>
  );
}
