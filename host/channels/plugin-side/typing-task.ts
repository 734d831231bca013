/**
 * Worker side: the typing indicator. The host fires it as a run starts and never waits for it,
 * so nothing is answered but success or the plugin's error.
 *
 * Loaded without tsx (Node's own type stripping): erasable TypeScript only.
 */
import { rebuildInboundEvent, type ChannelSource, type HttpChannelHandler, type PlainInboundEvent } from '@bot-ai/api';
import { callPlugin } from './call-plugin.ts';

/**
 * Shows the subscriber of `plain` that a reply is on its way; whatever the plugin returns is ignored.
 * @example await typingTask(handler, event, source) // null
 */
export async function typingTask(handler: Pick<HttpChannelHandler, 'sendTypingIndicator'>, plain: PlainInboundEvent, source: ChannelSource): Promise<null> {
  const event = rebuildInboundEvent(plain).bindSource(source);
  await callPlugin('sendTypingIndicator', () => handler.sendTypingIndicator(event));
  return null;
}
