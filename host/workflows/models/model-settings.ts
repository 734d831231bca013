import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import { API_KEY_ENV_PATTERN } from '../../config/named-api-keys.ts';

const openAiCompatibleSettings = z
  .object({
    provider: z.literal('openai-compatible'),
    model_id: z.string().min(1),
    base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    api_key_env: z
      .string()
      .regex(API_KEY_ENV_PATTERN, 'must name a BOT_AI_API_KEY_<NAME> environment variable')
      .optional(),
  })
  .strict();

const offlineSettings = z.object({ provider: z.literal('offline'), model_id: z.string().min(1) }).strict();

/**
 * The `settings` of a `kind: model` def, per provider. Strict, so a misspelt key is reported
 * rather than silently ignored.
 */
export const modelSettingsSchema = z.discriminatedUnion('provider', [openAiCompatibleSettings, offlineSettings], {
  error: 'provider must be `openai-compatible` or `offline`',
});

export type ModelSettings = z.output<typeof modelSettingsSchema>;
export type OpenAiCompatibleSettings = z.output<typeof openAiCompatibleSettings>;

/** One problem with a model def's settings; `path` is relative to `settings`. */
export interface ModelSettingsProblem {
  path: string[];
  message: string;
}

/**
 * Every problem with a model def's settings, for workflow validation (when it is saved) and for
 * the resolver (when it runs). Messages never repeat a value, since a misplaced `api_key` would
 * otherwise be echoed.
 *
 * @example
 * modelSettingsProblems({ provider: 'openai-compatible', model_id: 'gpt-4o-mini', api_key: 'sk-…' });
 * // [{ path: ['api_key'], message: 'API keys never go in a workflow: …' }]
 */
export function modelSettingsProblems(settings: unknown): ModelSettingsProblem[] {
  if (isRecord(settings) && 'api_key' in settings) {
    return [{ path: ['api_key'], message: 'API keys never go in a workflow: set BOT_AI_API_KEY_<NAME> and name it in api_key_env' }];
  }
  const result = modelSettingsSchema.safeParse(settings);
  const shapeProblems = result.success ? [] : result.error.issues.flatMap((issue): ModelSettingsProblem[] => {
    const path = issue.path.map(String);
    // One problem per unknown key, at that key, so the YAML path points at the typo.
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key], message: `is not a setting of this provider` }));
    return [{ path, message: issue.message }];
  });
  return [...shapeProblems, ...keyDestinationProblems(settings)];
}

/**
 * A named key goes only to the URL the operator bound to it (`BOT_AI_BASE_URL_<NAME>`): were a
 * def allowed both, anyone who may edit a workflow could send the key to their own server.
 */
function keyDestinationProblems(settings: unknown): ModelSettingsProblem[] {
  if (!isRecord(settings) || settings['provider'] !== 'openai-compatible') return [];
  if (settings['base_url'] === undefined || settings['api_key_env'] === undefined) return [];
  return [{
    path: ['base_url'],
    message: 'cannot be set with api_key_env: the key BOT_AI_API_KEY_<NAME> is only ever sent to the URL in BOT_AI_BASE_URL_<NAME>; remove base_url',
  }];
}

/** The settings of model def `defName`, parsed; throws `BOT_ERR_AI_MODEL_SETTINGS_INVALID` listing every problem. */
export function parseModelSettings(defName: string, settings: unknown): ModelSettings {
  const problems = modelSettingsProblems(settings);
  if (problems.length > 0) {
    const summary = problems.map(({ path, message }) => `${['settings', ...path].join('.')}: ${message}`).join('; ');
    throw new AppError('BOT_ERR_AI_MODEL_SETTINGS_INVALID', `Model "${defName}" has invalid settings: ${summary}`, {
      model: defName,
      problems,
    });
  }
  return modelSettingsSchema.parse(settings);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
