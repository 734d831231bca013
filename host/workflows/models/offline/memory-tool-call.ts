import type { ModelContent, ModelTool } from '../language-model-types.ts';
import { exampleValue } from './example-value.ts';
import { isNameKey } from './find-name.ts';

const MEMORY_TOOL = 'update_memory';

/**
 * The offline model's only tool use: when the user gives their name and `update_memory` is
 * offered with a bound memory whose schema has a name property, it stores the name there (the
 * complete value: the name plus whatever else the schema requires). Undefined otherwise.
 *
 * Relies on the tool's input schema having the documented shape
 * `{ properties: { memory: { properties: { <slug>: <definition schema> } } } }`.
 */
export function memoryToolCall(tools: ModelTool[] | undefined, name: string, callId: string): ModelContent | undefined {
  const tool = tools?.find((entry) => entry.type === 'function' && entry.name === MEMORY_TOOL);
  if (!tool || tool.type !== 'function') return undefined;
  const slugSchemas = objectAt(tool.inputSchema, ['properties', 'memory', 'properties']);
  for (const [slug, schema] of Object.entries(slugSchemas ?? {})) {
    const nameKey = Object.keys(objectAt(schema, ['properties']) ?? {}).find(isNameKey);
    if (!nameKey) continue;
    const value = { ...(exampleValue(schema, { text: '', name }) as object), [nameKey]: name };
    return { type: 'tool-call', toolCallId: callId, toolName: MEMORY_TOOL, input: JSON.stringify({ memory: { [slug]: value } }) };
  }
  return undefined;
}

function objectAt(value: unknown, path: string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'object' && current !== null ? (current as Record<string, unknown>) : undefined;
}
