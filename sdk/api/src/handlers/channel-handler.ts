import type { ChannelCapabilities } from '@bot-ai/types';
import type { z } from 'zod';
import { CHANNEL_HANDLER_KIND, type ChannelHandlerKind } from '../brands.ts';
import { DEFAULT_CHANNEL_CAPABILITIES } from '../capabilities.ts';
import { fetch as egressFetch } from '../egress/fetch.ts';
import { ChannelError } from '../errors.ts';
import type { ChannelInboundEvent } from '../events/channel-inbound-event.ts';
import type { ChannelSource } from '../source.ts';

/** A zod object schema describing a channel's per-source settings. */
export type SettingsSchema = z.ZodObject;

/**
 * What HTTP and WebSocket channel handlers share: a unique name, the settings schema (published
 * to the admin UI as JSON Schema) and capabilities. Extend {@link HttpChannelHandler} or
 * {@link WebSocketChannelHandler}, not this class.
 */
export abstract class ChannelHandler<S extends SettingsSchema = SettingsSchema> {
  static readonly [CHANNEL_HANDLER_KIND]: ChannelHandlerKind | undefined = undefined;

  /**
   * @param name unique channel name, e.g. `sample`
   * @param settingsSchema per-source settings; without it the settings are not in the admin UI
   */
  constructor(
    readonly name: string,
    readonly settingsSchema: S,
  ) {}

  /**
   * The source's settings parsed with the channel's schema (defaults applied; `{}` when absent).
   * @example const { api_url, api_key } = this.getSettings(event);
   */
  getSettings(from: ChannelSource | ChannelInboundEvent): z.output<S> {
    const settings = 'getSourceSettings' in from ? from.getSourceSettings() : from.settings;
    const parsed = this.settingsSchema.safeParse(settings ?? {});
    // Stored settings that fail the schema are the operator's problem, not the platform's: a
    // ChannelError (5xx) rather than a ZodError, which the host would answer as a bad payload.
    if (!parsed.success) {
      throw new ChannelError('BOT_ERR_CHANNEL_SETTINGS_INVALID', `The settings of this source do not match the channel's schema`, {
        cause: parsed.error,
      });
    }
    return parsed.data as z.output<S>;
  }

  /**
   * The host's egress client: the SDK's `fetch`, WHATWG-compatible, performed by the host under
   * its egress rules (the package's declared hosts, the serving source's `x-egress` origins).
   * Hand it to platform SDKs that take a custom `fetch`.
   * @example const response = await this.http(`${api_url}/messages`, { method: 'POST', body: JSON.stringify(message) });
   */
  get http(): typeof fetch {
    return egressFetch;
  }

  /**
   * What this channel can send. The host never sends a type marked false, nor text longer than
   * `maxTextLength` (it splits long text into several messages).
   * @example getCapabilities() { return { ...DEFAULT_CHANNEL_CAPABILITIES, quickReply: true }; }
   */
  getCapabilities(): ChannelCapabilities {
    return { ...DEFAULT_CHANNEL_CAPABILITIES };
  }
}
