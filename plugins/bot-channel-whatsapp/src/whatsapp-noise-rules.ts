import { WHATSAPP_MESSAGES_FIELD, type WhatsAppChange, type WhatsAppMessage } from './whatsapp-payload.schema.ts';

/**
 * Why a part of a delivery makes no event. Each rule is named so the README, the tests and the
 * fixtures can point at it:
 * - `other-field`: a change of another webhook field (template status, account update, echoes…);
 * - `other-phone-number`: a message to another business number than the source's `phone_number_id`;
 * - `statuses`: sent/delivered/read/failed statuses of our own messages (never read as messages);
 * - `errors`: an error notification (`value.errors`) or a message the platform could not give us
 *   (`messages[].errors`);
 * - `reaction`, `system`, `unsupported`: messages of those types (an emoji on a message, a
 *   number change, a type the Cloud API does not deliver).
 */
export type WhatsAppNoiseRule = 'other-field' | 'other-phone-number' | 'statuses' | 'errors' | 'reaction' | 'system' | 'unsupported';

/** Message types that never make an event: reactions, system notices, unsupported content. */
const NOISE_MESSAGE_TYPES: ReadonlyMap<string, WhatsAppNoiseRule> = new Map([
  ['reaction', 'reaction'],
  ['system', 'system'],
  ['unsupported', 'unsupported'],
  // The older name of `unsupported`, still sent by some API versions.
  ['unknown', 'unsupported'],
]);

/**
 * The rule that drops a whole change, if any: only `messages` changes carry messages.
 * @example changeNoiseRule({ field: 'message_template_status_update', value: {} }) // 'other-field'
 */
export function changeNoiseRule(change: WhatsAppChange): WhatsAppNoiseRule | undefined {
  return change.field === WHATSAPP_MESSAGES_FIELD ? undefined : 'other-field';
}

/**
 * The rule that drops a message, if any. A message with `errors` is dropped whatever its type:
 * the platform says it could not give us its content.
 * @example messageNoiseRule({ id: 'wamid.ID', type: 'reaction' }) // 'reaction'
 */
export function messageNoiseRule(message: Pick<WhatsAppMessage, 'type' | 'errors'>): WhatsAppNoiseRule | undefined {
  if (message.errors !== undefined && message.errors.length > 0) return 'errors';
  return NOISE_MESSAGE_TYPES.get(message.type);
}
