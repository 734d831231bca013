import { useEffect, useState } from 'react';
import type { JsonSchema } from '../editor/json-schema.ts';
import type { FieldPlace } from './field-completion.ts';
import { JsonataField } from './jsonata-field.tsx';
import { asJsonata } from './yaml-edits.ts';

export interface InputFieldProps {
  name: string;
  schema: JsonSchema;
  required: boolean;
  /** The value as written in the YAML (undefined: not set). */
  value: unknown;
  /** Writes the input (undefined removes it). */
  onCommit: (value: unknown) => void;
  place: () => FieldPlace;
}

/**
 * One input of a step, as the control its spec calls for: an expression (`=…`) as a JSONata
 * editor with completion, an enum as a select, a boolean as a checkbox, a number as a number
 * field, text as a text area, and lists or objects as JSON. Any input can become an expression.
 */
export function InputField(props: InputFieldProps) {
  const { name, schema, required, value, onCommit } = props;
  const id = `canvas-input-${name}`;
  const isExpression = typeof value === 'string' && value.startsWith('=');
  return (
    <div className="canvas-input" data-input={name}>
      <label htmlFor={id}>
        {name}
        {required ? ' (required)' : ''}
      </label>
      {schema.description && <small className="canvas-input-help">{schema.description}</small>}
      {isExpression ? <JsonataField label={name} value={value.slice(1)} onCommit={(text) => onCommit(`=${text}`)} place={props.place} /> : <PlainControl id={id} {...props} />}
      <p className="canvas-input-actions">
        {!isExpression && (
          <button type="button" onClick={() => onCommit(`=${value === undefined ? '' : asJsonata(value)}`)}>
            Use an expression
          </button>
        )}
        {!required && value !== undefined && (
          <button type="button" onClick={() => onCommit(undefined)}>
            Remove
          </button>
        )}
      </p>
    </div>
  );
}

function PlainControl({ id, name, schema, value, onCommit }: InputFieldProps & { id: string }) {
  if (schema.enum) {
    return (
      <select id={id} value={value === undefined ? '' : String(value)} onChange={(event) => onCommit(event.target.value === '' ? undefined : event.target.value)}>
        <option value="">(not set)</option>
        {schema.enum.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  }
  if (schema.type === 'boolean') return <input id={id} type="checkbox" checked={value === true} onChange={(event) => onCommit(event.target.checked)} />;
  if (schema.type === 'number' || schema.type === 'integer') return <NumberControl id={id} value={value} onCommit={onCommit} />;
  if (schema.type === 'string' || typeof value === 'string') return <TextControl id={id} name={name} value={value === undefined ? '' : String(value)} onCommit={onCommit} />;
  return <JsonControl id={id} value={value} onCommit={onCommit} />;
}

/** A draft of the control's text, written on leaving the field; reset when the YAML changes it. */
function useDraft(written: string): [string, (text: string) => void] {
  const [draft, setDraft] = useState(written);
  useEffect(() => setDraft(written), [written]);
  return [draft, setDraft];
}

function TextControl({ id, value, onCommit }: { id: string; name: string; value: string; onCommit: (value: unknown) => void }) {
  const [draft, setDraft] = useDraft(value);
  return <textarea id={id} rows={Math.min(6, draft.split('\n').length + 1)} value={draft} onChange={(event) => setDraft(event.target.value)} onBlur={() => draft !== value && onCommit(draft)} />;
}

function NumberControl({ id, value, onCommit }: { id: string; value: unknown; onCommit: (value: unknown) => void }) {
  const written = value === undefined ? '' : String(value);
  const [draft, setDraft] = useDraft(written);
  const commit = () => {
    if (draft === written) return;
    onCommit(draft.trim() === '' ? undefined : Number(draft));
  };
  return <input id={id} type="number" step="any" value={draft} onChange={(event) => setDraft(event.target.value)} onBlur={commit} onKeyDown={(event) => event.key === 'Enter' && commit()} />;
}

/** Lists and objects (quick replies, a JSON Schema) as JSON; text that is not JSON is not written. */
function JsonControl({ id, value, onCommit }: { id: string; value: unknown; onCommit: (value: unknown) => void }) {
  const written = value === undefined ? '' : JSON.stringify(value, null, 2);
  const [draft, setDraft] = useDraft(written);
  const [problem, setProblem] = useState<string>();
  const commit = () => {
    if (draft === written) return;
    try {
      onCommit(draft.trim() === '' ? undefined : JSON.parse(draft));
      setProblem(undefined);
    } catch (failure) {
      setProblem(`Not JSON: ${(failure as Error).message}`);
    }
  };
  return (
    <>
      <textarea id={id} className="canvas-json" rows={Math.min(8, draft.split('\n').length + 1)} value={draft} onChange={(event) => setDraft(event.target.value)} onBlur={commit} aria-invalid={problem !== undefined} />
      {problem && <small className="error">{problem}</small>}
    </>
  );
}
