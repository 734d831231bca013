import { ChannelError, z } from '@bot-ai/api';
import { callMessengerGraph } from './call-messenger-graph.ts';
import type { MessengerOutgoingMessage } from './messenger-encoder.ts';
import type { MessengerSettings } from './messenger-settings.schema.ts';

/**
 * How long one Send API call may take before it is abandoned (below the host's per-call limit).
 * @example await postMessengerMessage(settings, psid, { text: 'Hi' }, MESSENGER_SEND_TIMEOUT_MS);
 */
export const MESSENGER_SEND_TIMEOUT_MS = 10_000;

/** The Send API's answer: `{ recipient_id, message_id }`. */
const sendAnswerSchema = z.looseObject({ message_id: z.string().min(1) });

/**
 * Sends one message to a person (`psid`) as a reply (`messaging_type: RESPONSE`, within the
 * 24-hour window the person's message opened) and returns Meta's message id.
 * @example const mid = await postMessengerMessage(settings, '6723419087613458', { text: 'Hi' }, 10_000);
 */
export async function postMessengerMessage(settings: MessengerSettings, psid: string, message: MessengerOutgoingMessage, timeoutMs: number): Promise<string> {
  const body = { recipient: { id: psid }, messaging_type: 'RESPONSE', message };
  const answer = sendAnswerSchema.safeParse(await callMessengerGraph(settings, { method: 'POST', path: 'me/messages', body, timeoutMs }));
  if (!answer.success) throw new ChannelError('MESSENGER_ERR_NO_MESSAGE_ID', 'The Send API answered without a message_id');
  return answer.data.message_id;
}

/**
 * Shows the person that the Page is typing (`sender_action: typing_on`; Messenger clears it after
 * about 20 seconds, or when the next message arrives).
 * @example await postMessengerTyping(settings, '6723419087613458', 10_000);
 */
export async function postMessengerTyping(settings: MessengerSettings, psid: string, timeoutMs: number): Promise<void> {
  await callMessengerGraph(settings, { method: 'POST', path: 'me/messages', body: { recipient: { id: psid }, sender_action: 'typing_on' }, timeoutMs });
}
