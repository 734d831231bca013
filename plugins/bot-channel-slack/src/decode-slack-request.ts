import { PayloadRejectedError, type WebhookRequest } from '@bot-ai/api';
import { decodeSlackEventCallback } from './decode-slack-event-callback.ts';
import { decodeSlackInteraction } from './decode-slack-interaction.ts';
import { readSlackRequest } from './read-slack-request.ts';
import { droppedBy, type SlackDecodeResult } from './slack-decode-result.ts';
import { slackEventsApiBodySchema } from './slack-payload.schema.ts';

/**
 * Decodes one request Slack posted: an Events API delivery (JSON) or an interaction (a form),
 * to at most one message event, or to none and the rule that dropped it. No network: cheap.
 * Throws `PayloadRejectedError` (HTTP 400) for a body that is not Slack's.
 * @example const { events, dropped } = decodeSlackRequest(req);
 */
export function decodeSlackRequest(req: WebhookRequest, now = new Date()): SlackDecodeResult {
  const read = readSlackRequest(req);
  switch (read.kind) {
    case 'interaction':
      return decodeSlackInteraction(read.payload, now);
    case 'slash-command':
      return droppedBy('slash-command');
    case 'ssl-check':
      return droppedBy('ssl-check');
    case 'events-api':
      return decodeEventsApiBody(read.body, now);
  }
}

function decodeEventsApiBody(body: unknown, now: Date): SlackDecodeResult {
  const parsed = slackEventsApiBodySchema.safeParse(body);
  if (!parsed.success) throw new PayloadRejectedError('The JSON body has no Events API type', { cause: parsed.error });
  switch (parsed.data.type) {
    case 'event_callback':
      return decodeSlackEventCallback(parsed.data, now);
    case 'url_verification':
      return droppedBy('url-verification');
    default:
      return droppedBy('other-envelope-type');
  }
}
