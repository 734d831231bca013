import { z } from 'zod';

/**
 * The shape of a workflow YAML document (docs/admin.md, "Workflow editor"). This zod
 * schema is the single source of the published `schemas/workflow.schema.json` and of the
 * structural check when a workflow is saved; semantic checks (references, actions, expressions,
 * memory definition ids) come after it.
 */

const defName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'a name of letters, digits, "_" and "-"');

export const taskBindingsSchema = z
  .object({
    model: z.string().optional().describe('Name of a `kind: model` def; default: the workflow binding'),
    memory: z.array(z.string()).optional().describe('Names of `kind: memory` defs this task may read and write'),
  })
  .strict();

export const memoryDefSchema = z
  .object({
    kind: z.literal('memory'),
    description: z.string().optional(),
    settings: z.object({ definition_id: z.string().min(1).describe('Id of a memory definition') }).strict(),
  })
  .strict()
  .describe('Binds a memory definition; its values appear under $context.memory.<slug>');

export const modelDefSchema = z
  .object({
    kind: z.literal('model'),
    description: z.string().optional(),
    settings: z
      .object({
        provider: z.string().min(1).describe('`openai-compatible` or `offline`'),
        model_id: z.string().min(1),
      })
      .catchall(z.unknown()),
  })
  .strict()
  .describe('An AI model that AI tasks bind by name');

export const taskDefSchema = z
  .object({
    kind: z.literal('task'),
    description: z.string().optional(),
    action: z.string().min(1).describe('send_text_message, update_memory, ai_generate_reply, ai_generate_text, ai_generate_object, ai_infer_object or ai_agent'),
    inputs: z.record(z.string(), z.unknown()).optional().describe('Values starting with "=" are JSONata expressions'),
    bindings: taskBindingsSchema.optional(),
  })
  .strict()
  .describe('An action with its inputs; flow steps and agent tools name tasks');

export const workflowDefSchema = z.discriminatedUnion('kind', [memoryDefSchema, modelDefSchema, taskDefSchema]);

export const workflowBindingsSchema = z
  .object({
    model: z.string().optional().describe('Name of the default `kind: model` def'),
    memory: z.array(z.string()).optional().describe('Names of `kind: memory` defs bound for every AI task'),
  })
  .strict()
  .describe('Defaults for every AI task that has no bindings of its own');

export const flowStepSchema = z.object({ do: z.string().describe('Name of a `kind: task` def') }).strict();

export const workflowDocumentSchema = z
  .object({
    description: z.string().optional().describe('What the workflow does, for people'),
    defs: z.record(defName, workflowDefSchema).describe('Named definitions: memory bindings, models and tasks'),
    bindings: workflowBindingsSchema.optional(),
    flow: z.array(flowStepSchema).min(1).describe('The tasks to run, in order'),
  })
  .strict();

export type WorkflowDocument = z.output<typeof workflowDocumentSchema>;
export type WorkflowDef = z.output<typeof workflowDefSchema>;
export type MemoryDef = z.output<typeof memoryDefSchema>;
export type ModelDef = z.output<typeof modelDefSchema>;
export type TaskDef = z.output<typeof taskDefSchema>;
export type WorkflowBindings = z.output<typeof workflowBindingsSchema>;
