import { plainHttpUrl } from '../http/plain-http-url.ts';

/** The variables a model def may name in `settings.api_key_env` to take its key from: never other host secrets. */
export const API_KEY_ENV_PATTERN = /^BOT_AI_API_KEY_[A-Z0-9_]+$/;

const KEY_PREFIX = 'BOT_AI_API_KEY_';
const URL_PREFIX = 'BOT_AI_BASE_URL_';

/** A named key and the one URL it may be sent to. */
export interface NamedApiKey {
  key: string;
  /** The variable naming that URL (`BOT_AI_BASE_URL_<NAME>`), for error messages. */
  baseUrlEnv: string;
  /** Its value; undefined when unset or not an http(s) URL without credentials, and then the key is never sent. */
  baseUrl: string | undefined;
}

/**
 * The extra API keys model defs may name in `settings.api_key_env`: every non-empty
 * `BOT_AI_API_KEY_<NAME>` variable, each with the `BOT_AI_BASE_URL_<NAME>` it is bound to. Read
 * once at start (like the rest of the configuration) so a workflow can never read any other
 * environment variable, a key is never written in YAML, and — since the URL comes from the
 * operator too — a workflow editor can never send a key to a server of their choosing.
 *
 * @example
 * readNamedApiKeys(process.env);
 * // Map { 'BOT_AI_API_KEY_GROQ' => { key: 'gsk_…', baseUrlEnv: 'BOT_AI_BASE_URL_GROQ', baseUrl: 'https://api.groq.com/openai/v1' } }
 */
export function readNamedApiKeys(env: NodeJS.ProcessEnv): ReadonlyMap<string, NamedApiKey> {
  const keys = new Map<string, NamedApiKey>();
  for (const [name, value] of Object.entries(env)) {
    if (!API_KEY_ENV_PATTERN.test(name) || !value) continue;
    const baseUrlEnv = URL_PREFIX + name.slice(KEY_PREFIX.length);
    const baseUrl = env[baseUrlEnv];
    keys.set(name, { key: value, baseUrlEnv, baseUrl: baseUrl && plainHttpUrl(baseUrl) ? baseUrl : undefined });
  }
  return keys;
}

/**
 * What is wrong with the named keys' URLs, one line per variable, for the configuration error:
 * a key bound to a URL that is set but not http(s) would never be sent, and the operator learns
 * it at start rather than from a failing workflow. An unset URL is not an error here (a key may
 * be provided ahead of its URL); a model def naming that key fails with the variable named.
 */
export function namedApiKeyProblems(env: NodeJS.ProcessEnv): string[] {
  return [...readNamedApiKeys(env)]
    .filter(([, { baseUrlEnv, baseUrl }]) => env[baseUrlEnv] && baseUrl === undefined)
    .map(([name, { baseUrlEnv }]) => `${baseUrlEnv}: must be an http(s) URL without credentials (the only place ${name} is sent)`);
}
