import { isJsonataBuiltin } from '../expressions/expression-bindings.ts';
import { JSONATA_FUNCTIONS } from '../expressions/jsonata-functions.ts';
import { closestName, didYouMean } from './closest-name.ts';
import type { VariableReference } from './expression-references.ts';
import type { KnownDefinitions } from './known-memory-definitions.ts';
import { memoryPathProblem, type SegmentProblem } from './memory-path-problem.ts';
import { CONTEXT_KEYS, INPUT_FIELDS, SCOPE_VARIABLES } from './run-variables.ts';
import type { TaskScope } from './task-run-order.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** What a reference is checked against: the document, the task it is in, the definitions found. */
export interface ReferenceSite {
  parts: WorkflowParts;
  task: string;
  scope: TaskScope;
  known: KnownDefinitions;
}

const UNKNOWN = 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN';

/**
 * Why a variable reference reads nothing in a run, or undefined when it may read something.
 * `$context`, `$input` and `$outputs` are checked below the variable; any other variable must
 * be a JSONata function or an earlier task's output by name (an expression's own variables
 * never reach here).
 *
 * @example
 * await referenceProblem({ variable: 'outputs', start: 0, segments: [{ name: 'nope', start: 9 }] }, site);
 * // { code: 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN', message: 'No task is named "nope"…', start: 9 }
 */
export async function referenceProblem(reference: VariableReference, site: ReferenceSite): Promise<SegmentProblem | undefined> {
  const [first, ...rest] = reference.segments;
  if (reference.variable === 'context') {
    if (!first) return undefined;
    if (first.name === 'memory') return memoryPathProblem(rest, site.known);
    return CONTEXT_KEYS.includes(first.name as never) ? undefined : { code: UNKNOWN, message: contextMessage(first.name), start: first.start };
  }
  if (reference.variable === 'input') {
    if (!first || site.scope.isTool || INPUT_FIELDS.includes(first.name as never)) return undefined;
    const message = `$input has no "${first.name}": an inbound message has ${INPUT_FIELDS.join(', ')}${didYouMean(first.name, INPUT_FIELDS)}`;
    return { code: UNKNOWN, message, start: first.start };
  }
  if (reference.variable === 'outputs') {
    const message = first && outputMessage(first.name, site, (name) => `$outputs.${name}`);
    return message && first ? { code: UNKNOWN, message, start: first.start } : undefined;
  }
  if (await isJsonataBuiltin(reference.variable)) return undefined;
  const name = reference.variable;
  const message = site.parts.tasks.has(name) ? outputMessage(name, site, (task) => `$${task}`) : variableMessage(name, site);
  // The column of the name, after its "$".
  return message ? { code: UNKNOWN, message, start: reference.start + 1 } : undefined;
}

function contextMessage(name: string): string {
  // `$context.memoryvisitor` is `$context.memory.visitor` with its dot left out.
  const joined = CONTEXT_KEYS.find((key) => name.startsWith(key) && name.length > key.length);
  const hint = joined ? `; did you mean \`$context.${joined}.${name.slice(joined.length)}\`?` : didYouMean(name, CONTEXT_KEYS, (key) => `$context.${key}`);
  return `$context has no "${name}": it holds ${CONTEXT_KEYS.join(', ')}${hint}`;
}

/** Why the output of task `name` cannot exist when the site's task runs, or undefined. */
function outputMessage(name: string, { parts, task, scope }: ReferenceSite, written: (name: string) => string): string | undefined {
  if (!parts.tasks.has(name)) {
    if (parts.kinds.has(name)) return `"${name}" is a \`kind: ${String(parts.kinds.get(name))}\` def: only tasks have outputs`;
    return `No task is named "${name}"${didYouMean(name, parts.tasks.keys(), written)}`;
  }
  if (!parts.flow.some((step) => step.task === name)) return `"${name}" is no step of the flow, so ${written(name)} never holds an output`;
  if (!scope.outputsBefore || scope.outputsBefore.has(name)) return undefined;
  const earlier = [...scope.outputsBefore];
  const which = name === task ? 'this task has not run yet' : `"${name}" runs after "${task}"`;
  return `${written(name)} is empty here: ${which}; "${task}" can read the outputs of ${earlier.length > 0 ? earlier.join(', ') : 'no task (it is the first step)'}`;
}

function variableMessage(name: string, { parts }: ReferenceSite): string {
  // A mistyped function (`$lenght`) is as likely as a mistyped variable.
  const candidates = [...SCOPE_VARIABLES, ...parts.tasks.keys(), ...JSONATA_FUNCTIONS.map((fn) => fn.name)];
  const close = closestName(name, candidates);
  const hint = close === undefined ? '' : `; did you mean \`$${close}\`?`;
  return `No variable $${name}: an expression reads $input, $context, $outputs, earlier tasks by name, JSONata's functions and the variables it sets itself${hint}`;
}
