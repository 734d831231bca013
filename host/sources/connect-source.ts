/**
 * The panel's "Connect to <channel>": asks the source's channel to set the source up on its
 * platform (Telegram's setWebhook, an app manifest to paste), with the URL the platform must call.
 * What went wrong is told in the host's codes; a plugin's own words (its result's too) are shown
 * with the source's secrets masked, and an uncoded throw's words (anything at all) are not shown.
 */
import type { ConnectResult } from '@bot-ai/api';
import type { ChannelCalls } from '../channels/calls/channel-calls.ts';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import { connectResultSchema } from '../channels/plugin-side/connect-task.ts';
import { errorCode } from '../errors/describe-error.ts';
import { AppError } from '../errors/app-error.ts';
import { redactSecrets } from './redact-secrets.ts';
import { secretKeys } from './secret-settings.ts';
import { sourceLinks } from './source-links.ts';
import type { SourceRow } from './source.ts';
import type { SourceStore } from './source-store.ts';

export interface ConnectSourceDeps {
  sources: Pick<SourceStore, 'get'>;
  channels: Pick<ChannelRegistry<ChannelCalls>, 'get' | 'call'>;
}

const CONNECT_UNSUPPORTED = 'BOT_ERR_CHANNEL_CONNECT_UNSUPPORTED';

/**
 * Connects source `id` to its platform; `baseUrl` is where platforms reach this host
 * (BOT_PUBLIC_URL, or the request's origin), so the webhook URL is the one the source page shows.
 * @example await connectSource(deps, sourceId, 'https://bot.example') // { connected: true, message: 'Webhook set' }
 */
export async function connectSource(deps: ConnectSourceDeps, id: string, baseUrl: string): Promise<ConnectResult> {
  const row = await deps.sources.get(id);
  const description = deps.channels.get(row.channel)?.description;
  if (!description) throw unavailable(row.channel);
  if (description.kind !== 'http' || description.connectable !== true) throw unsupported(row.channel);
  const { webhookUrl } = sourceLinks(row, description.kind, baseUrl);
  const keys = secretKeysOf(description.settingsJsonSchema);
  let result: ConnectResult;
  try {
    result = await deps.channels.call(row.channel, (sandbox) => sandbox.connect(row, { webhookUrl: webhookUrl! }));
  } catch (error) {
    throw connectFailure(error, row, keys);
  }
  // Checked in the runner too, but a hostile runner writes its own answers.
  if (!connectResultSchema.safeParse(result).success) {
    throw new AppError('BOT_ERR_SOURCE_CONNECT_FAILED', 'connect() must return { connected: boolean, message: string, instructions?: string }', { code: 'BOT_ERR_PLUGIN_INVALID_RESULT' });
  }
  // A result's words are the plugin's too: a platform's refusal it passes on may quote the request
  // path, and Telegram's path holds the bot token.
  const mask = (text: string) => redactSecrets(text, row.settings, keys);
  return { connected: result.connected, message: mask(result.message), ...(result.instructions === undefined ? {} : { instructions: mask(result.instructions) }) };
}

function connectFailure(error: unknown, row: SourceRow, keys: string[] | undefined): AppError {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const pluginCode = errorCode(error) === 'BOT_ERR_PLUGIN_THREW' ? errorCode(cause) : undefined;
  // A 503 is the channel disabled, restarting, busy or closing: the operator tries again later.
  if ((error as { status?: unknown } | null)?.status === 503) return unavailable(row.channel, error);
  if (pluginCode === CONNECT_UNSUPPORTED) return unsupported(row.channel, error);
  if (pluginCode !== undefined) {
    // A ChannelError (or an egress refusal): its code and words are meant for people.
    const message = redactSecrets(String((cause as { message?: unknown }).message ?? ''), row.settings, keys);
    // No cause: the plugin's unmasked words would reach the log with it.
    return new AppError('BOT_ERR_SOURCE_CONNECT_FAILED', message || `The channel's connect step failed (${pluginCode})`, { code: pluginCode });
  }
  const code = errorCode(error) ?? 'BOT_ERR_INTERNAL';
  // Our own validation message says what the answer lacked; any other message is the plugin's, unvetted.
  const message = code === 'BOT_ERR_PLUGIN_INVALID_RESULT' ? (error as Error).message : `The channel's connect step failed (${code})`;
  return new AppError('BOT_ERR_SOURCE_CONNECT_FAILED', message, { code });
}

/** The channel's secret settings; undefined (all of them) when its schema says nothing. */
function secretKeysOf(settingsJsonSchema: Record<string, unknown> | undefined): string[] | undefined {
  return settingsJsonSchema ? secretKeys(settingsJsonSchema) : undefined;
}

function unsupported(channel: string, cause?: unknown): AppError {
  return new AppError('BOT_ERR_SOURCE_CONNECT_UNSUPPORTED', `The channel "${channel}" has no connect step: set the webhook up on the platform by hand`, undefined, { cause });
}

function unavailable(channel: string, cause?: unknown): AppError {
  return new AppError('BOT_ERR_SOURCE_CHANNEL_UNAVAILABLE', `The channel "${channel}" is not running; try again later`, undefined, { cause });
}
