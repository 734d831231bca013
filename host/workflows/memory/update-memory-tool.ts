import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import { AppError, isAppError } from '../../errors/app-error.ts';
import type { BoundMemoryDefinition } from '../runtime/action.ts';
import { readMemoryValues } from './read-memory-values.ts';

/** What the model sends: complete new values by bound slug. */
export interface UpdateMemoryToolInput {
  memory: Record<string, unknown>;
}

/** What the model reads back: the slugs saved, or why nothing was. */
export type UpdateMemoryToolResult = { saved: string[] } | { error: string };

const TOOL_DESCRIPTION =
  'Saves working memory. `memory` maps a slug to its complete new value, which replaces the stored value: ' +
  'repeat every field you want to keep. All values are saved, or none.';

/**
 * The `update_memory` AI tool for the given bound definitions (at least one). Its input schema
 * is `{ memory: { <slug>: <that definition's schema> } }` with only those slugs, each optional,
 * at least one. `execute` writes through `update` (all or none). A rejected write (an unbound
 * or unknown slug, a value that breaks its schema: any error with status 422) comes back to the
 * model as `{ error }` so it can correct itself and call again; any other failure (the database
 * is down) is thrown and fails the step.
 * @example generateText({ model, tools: { [RESERVED_TOOL_NAME]: createUpdateMemoryTool(bound, memory.update) }, … })
 */
export function createUpdateMemoryTool(
  definitions: readonly BoundMemoryDefinition[],
  update: (values: Record<string, unknown>) => Promise<void>,
): Tool<UpdateMemoryToolInput, UpdateMemoryToolResult> {
  const slugs = definitions.map(({ slug }) => slug);
  return tool({
    description: TOOL_DESCRIPTION,
    inputSchema: jsonSchema<UpdateMemoryToolInput>(updateMemoryInputSchema(definitions)),
    async execute(input): Promise<UpdateMemoryToolResult> {
      try {
        const values = readMemoryValues((input as Partial<UpdateMemoryToolInput> | undefined)?.memory);
        assertOnlyBoundSlugs(Object.keys(values), slugs);
        await update(values);
        return { saved: Object.keys(values) };
      } catch (error) {
        if (isAppError(error) && error.status === 422) return { error: `Nothing was saved: ${error.message}` };
        throw error;
      }
    },
  });
}

/** The tool's JSON Schema; exported so tests and the admin can show what the model is offered. */
export function updateMemoryInputSchema(definitions: readonly BoundMemoryDefinition[]): JSONSchema7 {
  const properties = Object.fromEntries(definitions.map((definition) => [definition.slug, slugSchema(definition)]));
  return {
    type: 'object',
    properties: {
      memory: { type: 'object', description: 'Complete new values by memory slug', properties, minProperties: 1, additionalProperties: false },
    },
    required: ['memory'],
    additionalProperties: false,
  };
}

function slugSchema({ name, schema }: BoundMemoryDefinition): JSONSchema7 {
  return { ...schema, description: typeof schema.description === 'string' ? schema.description : name } as JSONSchema7;
}

/** The SDK passes the model's input on unchecked, so the slugs are checked here. */
function assertOnlyBoundSlugs(given: string[], bound: readonly string[]): void {
  const unbound = given.filter((slug) => !bound.includes(slug));
  if (given.length > 0 && unbound.length === 0) return;
  const problem = given.length === 0 ? 'names no slug' : `names ${unbound.map((slug) => `"${slug}"`).join(', ')}`;
  throw new AppError('BOT_ERR_WORKFLOW_INPUT_INVALID', `update_memory ${problem}; it can save: ${bound.join(', ')}`, {
    input: 'memory',
  });
}
