import { ChannelError, z } from '@bot-ai/api';
import { callWhatsAppApi, type WhatsAppApi } from './call-whatsapp-api.ts';
import type { WhatsAppOutgoingMessage } from './whatsapp-encoder.ts';

/** The send answer: `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id }] }`. */
const sendAnswerSchema = z.looseObject({ messages: z.array(z.looseObject({ id: z.string().min(1) })).min(1) });

/** One send: from which business number, to whom, what. */
export interface WhatsAppSendRequest {
  phoneNumberId: string;
  /** The user's WhatsApp id (`wa_id`, the `from` of their messages). */
  to: string;
  message: WhatsAppOutgoingMessage;
  timeoutMs: number;
}

/**
 * Posts one message to `{api_base_url}/{api_version}/{phone_number_id}/messages` and returns
 * the platform's message id (a `wamid`). Throws `PlatformResponseError` on a non-2xx answer
 * (with the retry delay of a rate limit), a `ChannelError` (`WHATSAPP_ERR_UNREACHABLE`) when the
 * API gives no answer in time, and `WHATSAPP_ERR_NO_MESSAGE_ID` when a 2xx answer has no id.
 * @example const mid = await postWhatsAppMessage(api, { phoneNumberId, to: '16315551181', message: { type: 'text', text: { body: 'Hi' } }, timeoutMs: 10_000 });
 */
export async function postWhatsAppMessage(api: WhatsAppApi, request: WhatsAppSendRequest): Promise<string> {
  const body = { messaging_product: 'whatsapp', recipient_type: 'individual', to: request.to, ...request.message };
  const answer = await callWhatsAppApi(api, 'POST', [request.phoneNumberId, 'messages'], body, request.timeoutMs);
  const parsed = sendAnswerSchema.safeParse(answer);
  if (!parsed.success) throw new ChannelError('WHATSAPP_ERR_NO_MESSAGE_ID', 'The Cloud API accepted the message but answered without a message id');
  return parsed.data.messages[0]!.id;
}

/**
 * Marks an inbound message read and shows the typing indicator in its chat (dismissed by the
 * next reply, or after 25 s). WhatsApp has no indicator without the read mark.
 * @example await postWhatsAppTyping(api, { phoneNumberId, messageId: 'wamid.HBgL…', timeoutMs: 10_000 });
 */
export async function postWhatsAppTyping(api: WhatsAppApi, request: { phoneNumberId: string; messageId: string; timeoutMs: number }): Promise<void> {
  const body = { messaging_product: 'whatsapp', status: 'read', message_id: request.messageId, typing_indicator: { type: 'text' } };
  await callWhatsAppApi(api, 'POST', [request.phoneNumberId, 'messages'], body, request.timeoutMs);
}
