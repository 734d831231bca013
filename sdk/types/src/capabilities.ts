import { z } from 'zod';

/**
 * What a channel can send: one flag per outgoing type, whether it shows a typing indicator, its
 * longest text (0 = no known limit), and whether its platform drops a repeated send.
 * @example const capabilities: ChannelCapabilities = { ...DEFAULT_CHANNEL_CAPABILITIES, quickReply: true };
 */
export const channelCapabilitiesSchema = z.object({
  text: z.boolean(),
  quickReply: z.boolean(),
  buttons: z.boolean(),
  attachment: z.boolean(),
  list: z.boolean(),
  carousel: z.boolean(),
  typingIndicator: z.boolean(),
  maxTextLength: z.number().int().min(0),
  /**
   * The platform drops a send that repeats an earlier send's idempotency key
   * (`SendMessageOptions.idempotencyKey`). The host may then send again a reply whose outcome it
   * does not know (the host died or the call timed out mid-send), so that reply is neither lost
   * nor doubled. Without it such a reply is never sent again: at most once, never twice.
   * Optional so channels built before it still load; absent means false.
   */
  idempotentSends: z.boolean().optional(),
});
export type ChannelCapabilities = z.infer<typeof channelCapabilitiesSchema>;
