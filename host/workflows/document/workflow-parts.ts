import { z } from 'zod';
import {
  flowStepSchema,
  memoryDefSchema,
  modelDefSchema,
  taskDefSchema,
  workflowBindingsSchema,
  type MemoryDef,
  type ModelDef,
  type TaskDef,
  type WorkflowBindings,
} from './workflow-document.ts';

const DEF_KINDS = ['memory', 'model', 'task'] as const;
/** The kinds a def may declare. */
export type DefKind = (typeof DEF_KINDS)[number];

/**
 * The parts of a document that have their shape, each parsed on its own. The semantic checks
 * read these, so a shape problem in one def does not hide a broken reference in another: every
 * problem is reported in one pass, not only the first.
 */
export interface WorkflowParts {
  /** Every def name, with the kind it declares (whatever it is). */
  kinds: ReadonlyMap<string, unknown>;
  tasks: ReadonlyMap<string, TaskDef>;
  models: ReadonlyMap<string, ModelDef>;
  memories: ReadonlyMap<string, MemoryDef>;
  bindings: WorkflowBindings | undefined;
  /** Whether the workflow writes `bindings.model` at all, valid or not. */
  bindsModel: boolean;
  flow: readonly { index: number; task: string }[];
}

// Unknown keys are a shape problem, reported already; here they are dropped so the rest is checked.
const lenientTask = z.object(taskDefSchema.shape);
const lenientModel = z.object(modelDefSchema.shape);
const lenientMemory = z.object(memoryDefSchema.shape);
const lenientBindings = z.object(workflowBindingsSchema.shape);

/**
 * Reads the parts of parsed YAML (any value) that have their shape; the rest is left out.
 *
 * @example
 * readWorkflowParts(parse(text)).tasks.get('greet')?.action; // 'send_text_message'
 */
export function readWorkflowParts(value: unknown): WorkflowParts {
  const root = asRecord(value);
  const defs = Object.entries(asRecord(root.defs));
  return {
    kinds: new Map(defs.map(([name, def]) => [name, asRecord(def).kind])),
    tasks: parsedDefs(defs, lenientTask),
    models: parsedDefs(defs, lenientModel),
    memories: parsedDefs(defs, lenientMemory),
    bindings: lenientBindings.safeParse(root.bindings).data,
    bindsModel: asRecord(root.bindings).model !== undefined,
    flow: (Array.isArray(root.flow) ? root.flow : []).flatMap((step: unknown, index) => {
      const parsed = flowStepSchema.safeParse(step);
      return parsed.success ? [{ index, task: parsed.data.do }] : [];
    }),
  };
}

/**
 * Why `name` cannot be used where a def of `kind` is expected, or undefined when it can. A def
 * whose own `kind` is invalid is not reported again here: its shape problem says it already.
 */
export function referenceProblem(parts: WorkflowParts, name: string, kind: DefKind): string | undefined {
  if (!parts.kinds.has(name)) return `No def is named "${name}"`;
  const declared = parts.kinds.get(name);
  if (declared === kind || !DEF_KINDS.includes(declared as DefKind)) return undefined;
  return `"${name}" is a \`kind: ${String(declared)}\` def, not a \`kind: ${kind}\` def`;
}

function parsedDefs<T>(defs: [string, unknown][], schema: z.ZodType<T>): Map<string, T> {
  return new Map(defs.flatMap(([name, def]) => {
    const parsed = schema.safeParse(def).data;
    return parsed === undefined ? [] : [[name, parsed] as const];
  }));
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
