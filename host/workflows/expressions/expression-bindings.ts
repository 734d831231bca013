import jsonata from 'jsonata';

/**
 * What an expression can see: the run's `$context` (with `memory`), `$input` (the inbound
 * message) and the outputs of the tasks already run. A `RunState` is one.
 */
export interface ExpressionScope {
  context: Record<string, unknown>;
  input: unknown;
  outputs: Record<string, unknown>;
}

/** Variables the host always binds; a task with one of these names is reached via `$outputs`. */
const SCOPE_VARIABLES = new Set(['context', 'input', 'outputs']);

/** A name JSONata reads as one variable after `$` (a "-" would be read as a minus). */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `$<name>` is a JSONata function, by task name; asked once per name. */
const builtinByName = new Map<string, Promise<boolean>>();

/**
 * The variables of one evaluation: `$context`, `$input`, `$outputs` (every earlier output by task
 * name), and each output also as `$<task name>` when the name is a JSONata variable name and
 * shadows neither those three nor a JSONata function (a task named `count` must not break
 * `$count(...)`); such a task is still `$outputs.count`, and `my-task` is `$outputs.\`my-task\``.
 * @example await expressionBindings({ context, input, outputs: { ask: 'Ada' } }) // { $ask: 'Ada', … }
 */
export async function expressionBindings(scope: ExpressionScope): Promise<Record<string, unknown>> {
  const bindings: Record<string, unknown> = {};
  for (const [taskName, output] of Object.entries(scope.outputs)) {
    if (await isShorthandName(taskName)) bindings[taskName] = output;
  }
  return { ...bindings, context: scope.context, input: scope.input, outputs: scope.outputs };
}

async function isShorthandName(name: string): Promise<boolean> {
  if (!VARIABLE_NAME.test(name) || SCOPE_VARIABLES.has(name)) return false;
  return !(await isJsonataBuiltin(name));
}

/**
 * JSONata does not list its functions, so ask it: `$<name>` with no bindings is defined only
 * when it names one of them (or `$now`, `$millis`).
 */
export function isJsonataBuiltin(name: string): Promise<boolean> {
  let known = builtinByName.get(name);
  if (!known) {
    known = jsonata(`$${name}`)
      .evaluate(undefined)
      .then((value) => value !== undefined);
    builtinByName.set(name, known);
  }
  return known;
}
