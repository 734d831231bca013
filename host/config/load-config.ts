import type { ErrorCode } from '../errors/error-codes.ts';
import { configSchema, resolvePaths, type Config } from './config.schema.ts';
import { namedApiKeyProblems } from './named-api-keys.ts';

/** Raised when the environment holds invalid settings; the message names every bad variable. */
export class ConfigError extends Error {
  readonly code: ErrorCode = 'BOT_ERR_CONFIG_INVALID';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once into a frozen configuration. Empty strings count as unset, so
 * `FOO=` in an env file falls back to the default rather than failing.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((key) => [key, env[key]])
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = configSchema.safeParse(relevant);
  const problems = [...(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)), ...namedApiKeyProblems(env)];
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  const config = resolvePaths(result.data, cwd);
  const missing = requiredSecrets(config);
  if (missing.length > 0) throw new ConfigError(missing);
  return Object.freeze(config);
}

/** With an external database the host is a real deployment: no generated secrets there. */
function requiredSecrets(config: Config): string[] {
  if (config.embeddedDatabase) return [];
  return (['BOT_AUTH_SECRET', 'BOT_DOWNLOAD_SECRET'] as const)
    .filter((name) => config[name] === undefined)
    .map((name) => `${name}: required when DATABASE_URL is set (at least 32 characters)`);
}
