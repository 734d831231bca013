/**
 * The actions a workflow task may name, with the input keys each accepts. Saving a workflow
 * checks tasks against this table; the runtime implements each name (host/workflows/actions/).
 */
export interface ActionSpec {
  /** Input keys that must be present. */
  required: readonly string[];
  /** Input keys that may be present; any other key is a problem. */
  optional: readonly string[];
  /** AI actions need a model binding (the task's or the workflow's) and may bind memory. */
  ai: boolean;
}

export const ACTION_SPECS = {
  send_text_message: { required: ['text'], optional: ['quick_replies'], ai: false },
  update_memory: { required: ['memory'], optional: [], ai: false },
  ai_generate_reply: { required: [], optional: ['input_mode', 'messages_limit', 'system', 'prompt', 'temperature', 'max_output_tokens'], ai: true },
  ai_generate_text: { required: ['prompt'], optional: ['system', 'temperature', 'max_output_tokens'], ai: true },
  ai_generate_object: { required: ['prompt', 'schema'], optional: ['system', 'temperature'], ai: true },
  ai_infer_object: { required: ['schema'], optional: ['text', 'system', 'temperature'], ai: true },
  ai_agent: { required: ['prompt'], optional: ['system', 'tools', 'max_steps', 'temperature'], ai: true },
} as const satisfies Record<string, ActionSpec>;

export type ActionName = keyof typeof ACTION_SPECS;

export const ACTION_NAMES = Object.keys(ACTION_SPECS) as ActionName[];

/** The tool every AI task with memory bindings is offered; no custom tool may take this name. */
export const RESERVED_TOOL_NAME = 'update_memory';

export function isActionName(name: string): name is ActionName {
  return Object.hasOwn(ACTION_SPECS, name);
}
