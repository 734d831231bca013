import type { ChannelSource, PlainInboundEvent } from '@bot-ai/api';
import type { Logger } from 'pino';
import type { ChannelCalls } from '../channels/calls/channel-calls.ts';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import { errorCode } from '../errors/describe-error.ts';

export interface TypingTarget {
  channel: string;
  event: PlainInboundEvent;
  source: ChannelSource;
  inboundEventId: string;
}

/**
 * Shows the subscriber that a reply is coming, as a run starts: only for a running HTTP channel
 * whose capabilities say `typingIndicator: true`. Fire and forget: the run neither waits for it
 * nor fails with it, and a failure is not tried again (a late indicator is worse than none). A
 * busy or unavailable channel is logged at debug; anything else, a plugin or platform failure,
 * at warn, with its code and the plugin's own.
 * @example fireTyping(channels, logger, { channel: 'telegram', event, source, inboundEventId });
 */
export function fireTyping(channels: ChannelRegistry<ChannelCalls>, logger: Pick<Logger, 'debug' | 'warn'>, target: TypingTarget): void {
  const description = channels.running(target.channel)?.description;
  if (description?.kind !== 'http' || description.capabilities.typingIndicator !== true) return;
  channels
    .call(target.channel, (sandbox) => sandbox.typing(target.event, target.source))
    .catch((error: unknown) => {
      const fields = { inboundEventId: target.inboundEventId, channel: target.channel, code: errorCode(error) ?? 'unknown', cause: errorCode((error as { cause?: unknown } | null)?.cause) };
      // 503s are the channel being busy, restarting or disabled: nothing an operator must act on.
      if ((error as { status?: unknown } | null)?.status === 503) logger.debug(fields, 'typing indicator not sent: the channel is busy or unavailable');
      else logger.warn(fields, 'typing indicator failed; the run goes on without it');
    });
}
