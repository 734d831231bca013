import { z } from 'zod';

/**
 * What a channel can send: one flag per outgoing type, whether it shows a typing indicator, and
 * its longest text (0 = no known limit).
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
});
export type ChannelCapabilities = z.infer<typeof channelCapabilitiesSchema>;
