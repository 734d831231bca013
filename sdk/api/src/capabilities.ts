import type { ChannelCapabilities } from '@bot-ai/types';

/**
 * What a channel supports unless it says otherwise: plain text only, no typing indicator, no
 * known text limit, a platform that does not deduplicate sends. Override `getCapabilities()` and spread these defaults.
 * @example getCapabilities() { return { ...DEFAULT_CHANNEL_CAPABILITIES, quickReply: true, maxTextLength: 2000 }; }
 */
export const DEFAULT_CHANNEL_CAPABILITIES: Readonly<ChannelCapabilities> = Object.freeze({
  text: true,
  quickReply: false,
  buttons: false,
  attachment: false,
  list: false,
  carousel: false,
  typingIndicator: false,
  maxTextLength: 0,
  idempotentSends: false,
});
