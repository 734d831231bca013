import type { MessengerEntry, MessengerMessaging } from './messenger-payload.schema.ts';

/**
 * Why a webhook entry or messaging item is dropped without an event:
 * - `other-page`: the entry is for another Page than the source's `page_id` setting (when set);
 * - `echo`: a message the Page itself sent (`message.is_echo`), this bot's replies included;
 * - `delivery`, `read`: receipts for messages the Page sent;
 * - `reaction`: a reaction to a message (no text a workflow could answer);
 * - `optin`, `referral`: a plugin opt-in or an m.me / ad referral without a message or postback
 *   (the person has not said anything yet; a Get Started postback carries its own referral).
 * @example const rule: MessengerNoiseRule | undefined = messagingNoiseRule(item);
 */
export type MessengerNoiseRule = 'other-page' | 'echo' | 'delivery' | 'read' | 'reaction' | 'optin' | 'referral';

/** The item-level rules, in the order they are tried. */
const NOTIFICATIONS = ['delivery', 'read', 'reaction', 'optin', 'referral'] as const;

/**
 * The rule that drops a whole entry, if any: an entry of another Page when `pageId` is set.
 * @example entryNoiseRule({ id: '102938475610293', … }, { pageId: '555' }) // 'other-page'
 */
export function entryNoiseRule(entry: MessengerEntry, filter: { pageId: string }): MessengerNoiseRule | undefined {
  return filter.pageId !== '' && entry.id !== filter.pageId ? 'other-page' : undefined;
}

/**
 * The rule that drops one messaging item, if any. An item that is none of these and carries
 * neither a message nor a postback is an unknown kind of notification: skipped too, but by no
 * rule (the decoder simply finds nothing in it).
 * @example messagingNoiseRule({ sender: { id: '1' }, read: { watermark: 1 } }) // 'read'
 */
export function messagingNoiseRule(item: MessengerMessaging): MessengerNoiseRule | undefined {
  if (item.message?.is_echo === true) return 'echo';
  if (item.message !== undefined || item.postback !== undefined) return undefined;
  return NOTIFICATIONS.find((key) => item[key] !== undefined);
}
