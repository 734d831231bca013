import { AppError } from '../errors/app-error.ts';
import { xEgressKeys } from '../egress/x-egress-origins.ts';
import { SECRET_MASK } from './secret-settings.ts';

type Settings = Record<string, unknown>;

/**
 * Refuses an update that moves an endpoint setting (`x-egress`, such as an API base URL) to
 * another origin while keeping stored secrets the update does not give again: the channel would
 * send those secrets (a bot token in Telegram's URL path, a Bearer header) to the new address,
 * so whoever moves the endpoint, an editor who can never read the secrets included, must hold
 * them. A secret given again (a new value, or null to clear it) or one that is empty does not
 * count; a move within the same origin (another path), or back to the channel's default (unset),
 * does not either.
 * @example checkSecretsOnEndpointMove(schema, stored, saved, patch, ['bot_token']) // throws BOT_ERR_SOURCE_SECRETS_REQUIRED
 */
export function checkSecretsOnEndpointMove(settingsJsonSchema: Record<string, unknown>, stored: Settings, saved: Settings, patch: Settings, secretKeys: readonly string[]): void {
  // Unset is no move: the channel's default endpoint is the package's own, never the operator's.
  const moved = xEgressKeys(settingsJsonSchema).filter((key) => isSet(saved[key]) && originOf(stored[key]) !== originOf(saved[key]));
  if (moved.length === 0) return;
  const keptBehind = secretKeys.filter((key) => isSet(stored[key]) && (patch[key] === undefined || patch[key] === SECRET_MASK));
  if (keptBehind.length === 0) return;
  throw new AppError(
    'BOT_ERR_SOURCE_SECRETS_REQUIRED',
    `Moving ${moved.join(', ')} to another address would send the stored ${keptBehind.join(', ')} there: enter ${keptBehind.length === 1 ? 'it' : 'them'} again in the same change`,
    { fields: keptBehind.map((key) => `settings.${key}`) },
  );
}

function isSet(value: unknown): boolean {
  return typeof value === 'string' ? value !== '' : value !== undefined && value !== null;
}

/** The origin of a URL setting; the value itself when it is not a URL (any change then counts). */
function originOf(value: unknown): string {
  return typeof value === 'string' && URL.canParse(value) ? new URL(value).origin : JSON.stringify(value ?? null);
}
