import { parseDocument } from 'yaml';
import { findConditions, type ExpressionCondition } from './find-conditions.ts';
import { memoryTouched, type MemoryTouch } from './memory-touched.ts';

/** A condition in one of a step's inputs: the input's value is `then` when `test` holds, else `else`. */
export interface FlowCondition extends ExpressionCondition {
  input: string;
  /** Its rank among the input's conditions, by the order of their `?` (as a run records them). */
  index: number;
}

/** A task an `ai_agent` step may call as a tool: a branch the model chooses at run time. */
export interface FlowTool {
  task: string;
  action?: string;
}

/** One `flow` step: the task it runs (`do`), that task's action, conditions, memory and tools. */
export interface FlowStep {
  position: number;
  task: string;
  /** Undefined when `do` names no `kind: task` def (yet). */
  action?: string;
  description?: string;
  conditions: FlowCondition[];
  memory: MemoryTouch[];
  tools: FlowTool[];
}

/** The flow as drawn: its steps in order, and why it is partial or stale when it is. */
export interface FlowGraph {
  steps: FlowStep[];
  error?: string;
}

interface Parsed {
  defs: Record<string, Record<string, unknown>>;
  boundMemory: string[];
  flow: unknown[];
}

/**
 * The flow of a workflow's YAML, for drawing. Never throws: while the text does not parse or
 * has no steps, it returns `previous` (the last graph drawn) with the error, else the steps it
 * could read. The
 * format's flow is a list of `do` steps; its conditions live in task inputs (`test ? a : b`
 * expressions) and its branches in an agent's tools.
 *
 * @example
 * buildFlowGraph('defs: { hi: { kind: task, action: send_text_message } }\nflow: [{ do: hi }]')
 * // { steps: [{ position: 0, task: 'hi', action: 'send_text_message', conditions: [], memory: [], tools: [] }] }
 */
export function buildFlowGraph(yaml: string, previous?: FlowGraph): FlowGraph {
  const { parsed, error } = parseFlow(yaml);
  const steps = parsed ? parsed.flow.map((step, position) => toStep(parsed, step, position)) : [];
  const problem = error ?? stepsProblem(steps);
  if (!problem) return { steps };
  const keepPrevious = (error !== undefined || steps.length === 0) && previous !== undefined && previous.steps.length > 0;
  return { steps: keepPrevious ? previous.steps : steps, error: problem };
}

/** Why the steps read cannot be drawn as they are: none, or one that names no task. */
function stepsProblem(steps: FlowStep[]): string | undefined {
  if (steps.length === 0) return 'No steps: list them under `flow:` as `- do: <task>`';
  const unnamed = steps.find((step) => step.task === '');
  return unnamed ? `Step ${unnamed.position + 1} names no task: write it as \`- do: <task>\`` : undefined;
}

function parseFlow(yaml: string): { parsed?: Parsed; error?: string } {
  try {
    const document = parseDocument(yaml, { prettyErrors: true, logLevel: 'error' });
    const error = document.errors[0]?.message.split('\n')[0]?.replace(/:$/, '');
    const root: unknown = document.toJS();
    return { parsed: isRecord(root) ? readParts(root) : undefined, error };
  } catch (failure) {
    return { error: failure instanceof Error ? failure.message.split('\n')[0] : String(failure) };
  }
}

function readParts(root: Record<string, unknown>): Parsed {
  const defs = isRecord(root.defs) ? root.defs : {};
  const bindings = isRecord(root.bindings) ? root.bindings : {};
  return {
    defs: Object.fromEntries(Object.entries(defs).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]))),
    boundMemory: stringList(bindings.memory),
    flow: Array.isArray(root.flow) ? root.flow : [],
  };
}

function toStep(parsed: Parsed, step: unknown, position: number): FlowStep {
  const task = isRecord(step) && typeof step.do === 'string' ? step.do : '';
  const def = taskDef(parsed, task);
  const action = typeof def?.action === 'string' ? def.action : undefined;
  const inputs = isRecord(def?.inputs) ? def.inputs : {};
  return {
    position,
    task,
    ...(action === undefined ? {} : { action }),
    ...(typeof def?.description === 'string' ? { description: def.description } : {}),
    conditions: conditionsOf(inputs),
    memory: def ? memoryTouched({ action, inputs, boundMemory: boundMemoryOf(parsed, def, action) }) : [],
    tools: action === 'ai_agent' ? stringList(inputs.tools).map((tool) => toTool(parsed, tool)) : [],
  };
}

function taskDef(parsed: Parsed, name: string): Record<string, unknown> | undefined {
  const def = Object.hasOwn(parsed.defs, name) ? parsed.defs[name] : undefined;
  return def?.kind === 'task' ? def : undefined;
}

function toTool(parsed: Parsed, task: string): FlowTool {
  const action = taskDef(parsed, task)?.action;
  return typeof action === 'string' ? { task, action } : { task };
}

function conditionsOf(inputs: Record<string, unknown>): FlowCondition[] {
  return Object.entries(inputs).flatMap(([input, value]) =>
    typeof value === 'string' && value.startsWith('=') ? findConditions(value.slice(1)).map((condition, index) => ({ input, index, ...condition })) : [],
  );
}

/** A task's own memory bindings; an AI task without its own bindings takes the workflow's. */
function boundMemoryOf(parsed: Parsed, def: Record<string, unknown>, action: string | undefined): string[] {
  const own = isRecord(def.bindings) ? def.bindings.memory : undefined;
  if (own !== undefined) return stringList(own);
  return action?.startsWith('ai_') ? parsed.boundMemory : [];
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
