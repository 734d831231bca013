import type { StdIncomingMessage } from '@bot-ai/types';
import { PayloadRejectedError } from '../../../errors.ts';
import { MessageInboundEvent } from '../../../events/message-inbound-event.ts';
import type { WebSocketFrame } from '../../../handlers/websocket-channel-handler.ts';
import { WEB_CHANNEL_NAME } from './web-channel-name.ts';
import { webClientFrameSchema, type WebClientFrame } from './web-client-frame.schema.ts';

/**
 * Turns one client frame into a message event. The event id is the session and the client's
 * message id, so a frame the browser sends again (it did not see the ack) is stored once; the
 * sender is the session, so one browser is one subscriber. Throws `PayloadRejectedError` when
 * the frame is not JSON or not a client frame.
 * @example decodeWebFrame({ sessionId, data: '{"type":"message","id":"m1","text":"hello"}' })
 */
export function decodeWebFrame(frame: WebSocketFrame, now = new Date()): MessageInboundEvent[] {
  const parsed = webClientFrameSchema.safeParse(parseJson(frame.data));
  if (!parsed.success) throw new PayloadRejectedError(describeIssue(parsed.error.issues[0]), { cause: parsed.error });
  return [
    new MessageInboundEvent(
      {
        channelName: WEB_CHANNEL_NAME,
        rawEvent: parsed.data,
        channelAttributes: { session_id: frame.sessionId },
        occurredAt: now,
        eventId: `${frame.sessionId}:${parsed.data.id}`,
        senderForeignId: frame.sessionId,
      },
      toIncomingMessage(parsed.data),
    ),
  ];
}

function toIncomingMessage(frame: WebClientFrame): StdIncomingMessage {
  if (frame.type === 'quick_reply') return { type: 'quickReply', data: { text: frame.text || frame.payload, payload: frame.payload } };
  return { type: 'text', data: { text: frame.text } };
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new PayloadRejectedError('The frame is not valid JSON', { cause: error });
  }
}

function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'The frame is not a chat frame';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
