import type { MessageInboundEvent } from '@bot-ai/api';
import type { SlackDropRule } from './slack-noise-rules.ts';

/**
 * What one Slack delivery decodes to: its events, or none and the rule that dropped it (for
 * tests and diagnostics; the host sees the events only).
 * @example const { events, dropped } = decodeSlackDelivery(req); // { events: [], dropped: 'bot-message' }
 */
export interface SlackDecodeResult {
  events: MessageInboundEvent[];
  dropped?: SlackDropRule;
}

/**
 * No event, because of `rule`.
 * @example return droppedBy('other-event-type');
 */
export function droppedBy(rule: SlackDropRule): SlackDecodeResult {
  return { events: [], dropped: rule };
}
