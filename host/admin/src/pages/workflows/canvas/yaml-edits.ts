import { isMap, isSeq, parseDocument, type Document, type ToStringOptions } from 'yaml';
import { ACTION_SPECS, type ActionName } from '../../../../../workflows/runtime/action-specs.ts';

// Long lines stay on one line (the default folds past 80 columns, rewriting untouched values).
const WRITE_OPTIONS: ToStringOptions = { lineWidth: 0, minContentWidth: 0 };

/** A value a new step starts with for each required input, so that it saves as it is. */
const STARTING_VALUES: Record<string, unknown> = {
  text: 'Hello!',
  memory: '={}',
  prompt: '=$input.text',
  schema: { type: 'object', properties: {} },
};

/**
 * Edits of a workflow's YAML made from the canvas, through `yaml`'s document API: comments,
 * blank lines, key order and quoting of everything else stay as written. Each returns the new
 * text; the editor applies only the lines that changed (see editor/minimal-change.ts).
 */
function edit(yaml: string, change: (document: Document) => void): string {
  const document = parseDocument(yaml, { keepSourceTokens: false });
  if (document.errors.length > 0) throw new Error(`The YAML has errors; fix them in the text first: ${document.errors[0]!.message.split('\n')[0]}`);
  change(document);
  return document.toString(WRITE_OPTIONS);
}

/**
 * Sets one input of a task def (removes it when `value` is undefined). A scalar keeps its node,
 * so a comment on it and its quoting stay.
 *
 * @example
 * setTaskInput('defs:\n  greet:\n    # hi\n    inputs:\n      text: Hi\n', 'greet', 'text', 'Hello')
 * // 'defs:\n  greet:\n    # hi\n    inputs:\n      text: Hello\n'
 */
export function setTaskInput(yaml: string, task: string, input: string, value: unknown): string {
  return edit(yaml, (document) => {
    if (value === undefined) document.deleteIn(['defs', task, 'inputs', input]);
    else document.setIn(['defs', task, 'inputs', input], value);
  });
}

/** A def name not taken yet: the action's name, then `<action>_2`, `_3`… */
export function uniqueTaskName(yaml: string, action: string): string {
  const defs = parseDocument(yaml).get('defs');
  const taken = (name: string) => isMap(defs) && defs.has(name);
  if (!taken(action)) return action;
  let suffix = 2;
  while (taken(`${action}_${suffix}`)) suffix++;
  return `${action}_${suffix}`;
}

/**
 * Adds a step running `action` at `position` of the flow: a new task def (a unique name, the
 * action's required inputs with starting values) at the end of `defs`, and `- do: <name>`.
 *
 * @example
 * addStep(yaml, 'send_text_message', 1) // { yaml: '…send_text_message:\n    kind: task…', task: 'send_text_message' }
 */
export function addStep(yaml: string, action: ActionName, position: number): { yaml: string; task: string } {
  const task = uniqueTaskName(yaml, action);
  const inputs = Object.fromEntries(ACTION_SPECS[action].required.map((input) => [input, STARTING_VALUES[input] ?? '']));
  const text = edit(yaml, (document) => {
    document.setIn(['defs', task], document.createNode({ kind: 'task', action, inputs }));
    const flow = document.get('flow', true);
    const item = document.createNode({ do: task });
    if (isSeq(flow)) flow.items.splice(Math.max(0, Math.min(position, flow.items.length)), 0, item);
    else document.set('flow', document.createNode([{ do: task }]));
  });
  return { yaml: text, task };
}

/** The three parts of a conditional an input becomes: JSONata each. */
export interface BranchParts {
  test: string;
  then: string;
  else: string;
}

/**
 * Turns an input into a conditional, `=<test> ? <then> : <else>`: the input is `then` when
 * `test` holds, else `else` (JSONata's `? :`; the flow draws it as a diamond).
 *
 * @example
 * addBranch(yaml, 'greet', 'text', { test: '$exists($context.memory.profile.name)', then: '"Hi " & $context.memory.profile.name', else: '"Hi!"' })
 */
export function addBranch(yaml: string, task: string, input: string, parts: BranchParts): string {
  return setTaskInput(yaml, task, input, `=${parts.test.trim()} ? ${parts.then.trim()} : ${parts.else.trim()}`);
}

/**
 * A value as JSONata that yields it: an expression's text (bracketed, to sit inside a
 * conditional), a string quoted, anything else as JSON.
 *
 * @example
 * asJsonata('Hello') // '"Hello"'
 * asJsonata('=$input.text') // '($input.text)'
 */
export function asJsonata(value: unknown): string {
  if (typeof value === 'string' && value.startsWith('=')) return `(${value.slice(1).trim()})`;
  return JSON.stringify(value ?? '');
}

/** The inputs of a task def as written (an empty object when it has none or is not there). */
export function taskInputs(yaml: string, task: string): Record<string, unknown> {
  const inputs: unknown = parseDocument(yaml).getIn(['defs', task, 'inputs']);
  const plain: unknown = isMap(inputs) ? inputs.toJSON() : undefined;
  return typeof plain === 'object' && plain !== null && !Array.isArray(plain) ? (plain as Record<string, unknown>) : {};
}
