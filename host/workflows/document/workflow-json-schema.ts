import { z } from 'zod';
import { workflowDocumentSchema } from './workflow-document.ts';

/** Where editors find it: a workflow file's first line `# yaml-language-server: $schema=<path to this file>`. */
export const WORKFLOW_SCHEMA_FILE = 'workflow.schema.json';

/**
 * The JSON Schema of workflow YAML, generated from `workflowDocumentSchema` (published as
 * `schemas/workflow.schema.json`). It checks the shape only; saving a workflow also runs the
 * semantic checks (references, actions, expressions, memory definitions).
 */
export function workflowJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(workflowDocumentSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema,
    $id: 'urn:bot-host:schema:workflow',
    title: 'Bot host workflow',
    description:
      'A conversational workflow: defs (kind memory, model or task), default bindings and the flow of tasks. ' +
      'Strings starting with "=" in task inputs are JSONata expressions. The host also checks references, actions, ' +
      'models, memory definitions and expressions when the workflow is saved.',
    ...schema,
  };
}

/** The generated files this module owns under `schemas/`, by file name (written by `npm run schemas`). */
export function workflowSchemaFiles(): Record<string, string> {
  return { [WORKFLOW_SCHEMA_FILE]: `${JSON.stringify(workflowJsonSchema(), null, 2)}\n` };
}
