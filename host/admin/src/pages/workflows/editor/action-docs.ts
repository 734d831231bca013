import { ACTION_SPECS, type ActionName } from '../../../../../workflows/runtime/action-specs.ts';
import type { JsonSchema } from './json-schema.ts';

/**
 * What the shipped workflow schema leaves open (it checks shape only): the actions, each one's
 * inputs and the model settings per provider. Which inputs an action takes comes from the
 * host's ACTION_SPECS, the table saving checks against; the words are the actions' own docs.
 */
const ACTION_DESCRIPTIONS: Record<ActionName, string> = {
  send_text_message: 'Sends `text` to the subscriber (a quick-reply message when `quick_replies` is given). Output: { text, mid }.',
  update_memory: 'Writes the complete new values in `memory` (by slug), all or none; `$context.memory` is refreshed. Output: { slugs }.',
  ai_generate_reply: 'Answers the subscriber with the model and sends the answer: from the recent history (`input_mode: history`), else `prompt`, else the message. Output: { text }.',
  ai_generate_text: 'Generates text from `prompt` (and `system`) without sending it; later steps use `<task>.text`. Output: { text }.',
  ai_generate_object: 'Generates an object matching the JSON Schema `schema` from `prompt`. Output: { object }.',
  ai_infer_object: 'Extracts an object matching the JSON Schema `schema` from `text` (default: the message text). Output: { object }.',
  ai_agent: 'A tool loop of up to `max_steps` model calls; the model may call the tasks named in `tools`. Output: { text }, not sent.',
};

const INPUTS: Record<string, JsonSchema> = {
  text: { type: 'string', description: 'The text; an expression may build it, e.g. `="Hello " & $input.text`.' },
  quick_replies: { type: 'array', description: 'Buttons offered with the text: a list of { title, payload }.' },
  memory: { description: 'New values by memory slug, usually an expression: `={ "profile": $merge([$context.memory.profile, { "name": "Ada" }]) }`.' },
  input_mode: { type: 'string', enum: ['history', 'prompt'], description: '`history`: the model sees the last `messages_limit` messages; `prompt`: only `prompt` (else the message text).' },
  messages_limit: { type: 'integer', description: 'How many recent messages the model sees with `input_mode: history` (1-100, default 10).' },
  system: { type: 'string', description: 'The system prompt: who the model is and how it answers.' },
  prompt: { type: 'string', description: 'The prompt; an expression may build it from `$input` and `$context`.' },
  temperature: { type: 'number', description: 'Sampling temperature, 0 to 2.' },
  max_output_tokens: { type: 'integer', description: 'Upper bound on the tokens the model writes.' },
  schema: { type: 'object', description: 'A JSON Schema the object must match.' },
  tools: { type: 'array', description: 'Names of `kind: task` defs the agent may call (each runs with the call arguments as `$input`).' },
  max_steps: { type: 'integer', description: 'Most model calls in the tool loop (1-20, default 5).' },
};

/** The `action` property, with every action the host runs as its values. */
export function actionSchema(base: JsonSchema): JsonSchema {
  const names = Object.keys(ACTION_SPECS) as ActionName[];
  return { ...base, description: 'What the task does', enum: names, enumDescriptions: names.map((name) => ACTION_DESCRIPTIONS[name]) };
}

/** The `inputs` of a task with this action (every known input when the action is not one). */
export function actionInputsSchema(base: JsonSchema, action: string): JsonSchema {
  const spec = (ACTION_SPECS as Record<string, { required: readonly string[]; optional: readonly string[] }>)[action];
  const names = spec ? [...spec.required, ...spec.optional] : Object.keys(INPUTS);
  const properties = Object.fromEntries(names.map((name) => [name, INPUTS[name] ?? {}]));
  const description = spec ? `Inputs of ${action}. ${base.description ?? ''}` : base.description;
  return { ...base, description, properties, required: spec ? [...spec.required] : [], additionalProperties: false };
}

/** A model def's `settings`: `provider` first, then what that provider takes. */
export function modelSettingsSchema(base: JsonSchema, provider: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    provider: { type: 'string', enum: ['openai-compatible', 'offline'], enumDescriptions: ['An OpenAI-compatible HTTP API (BOT_AI_BASE_URL, BOT_AI_API_KEY)', 'Answers with no network, for tests and demos'], description: 'Who runs the model: `openai-compatible` or `offline`' },
    model_id: { type: 'string', description: 'The model name the provider knows, e.g. gpt-4o-mini' },
  };
  if (provider !== 'offline') {
    properties.base_url = { type: 'string', description: 'The API base URL (default: BOT_AI_BASE_URL)' };
    properties.api_key_env = { type: 'string', description: 'A BOT_AI_API_KEY_<NAME> environment variable holding the key (default: BOT_AI_API_KEY)' };
  }
  return { ...base, properties, additionalProperties: false };
}

/** The one-line description of an action, for hover. */
export function actionDescription(name: string): string | undefined {
  return (ACTION_DESCRIPTIONS as Record<string, string>)[name];
}
