import { API_KEY_ENV_PATTERN } from './model-settings.ts';

/**
 * The extra API keys model defs may name in `settings.api_key_env`: every non-empty
 * `BOT_AI_API_KEY_<NAME>` variable, read once at start (like the rest of the configuration) so
 * a workflow can never read any other environment variable, and a key is never written in YAML.
 *
 * @example
 * const namedApiKeys = readNamedApiKeys(process.env); // Map { 'BOT_AI_API_KEY_GROQ' => 'gsk_…' }
 */
export function readNamedApiKeys(env: NodeJS.ProcessEnv): ReadonlyMap<string, string> {
  const keys = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (API_KEY_ENV_PATTERN.test(name) && value) keys.set(name, value);
  }
  return keys;
}
