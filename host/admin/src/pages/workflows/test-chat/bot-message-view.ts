import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import { safeUrl } from '../../../components/safe-url.ts';

/** A quick reply or button: a payload it sends back as the next turn, a link it opens, or neither (a link refused). */
export interface Chip {
  title: string;
  payload?: string;
  url?: string;
}

/** A card of a list or carousel message. */
export interface CardView {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  chips: Chip[];
}

/** What one outgoing message shows in the chat: its text, its chips, its file and its cards. */
export interface BotMessageView {
  text: string;
  chips: Chip[];
  attachment?: { kind: string; url: string; name?: string };
  cards: CardView[];
}

/**
 * Reads an outgoing envelope (what the run would have sent) into what a bubble shows. The run
 * hands envelopes over as the host validated them; an unknown type shows its text, if any.
 * @example botMessageView({ type: 'quickReply', data: { text: 'Tea?', quickReplies: [{ title: 'Yes', payload: 'YES' }] } })
 * // { text: 'Tea?', chips: [{ title: 'Yes', payload: 'YES' }], cards: [] }
 */
export function botMessageView(message: Record<string, unknown>): BotMessageView {
  const envelope = message as StdOutgoingMessageEnvelope;
  switch (envelope.type) {
    case 'quickReply':
      return { text: envelope.data.text, chips: envelope.data.quickReplies.map(({ title, payload }) => ({ title, payload })), cards: [] };
    case 'buttons':
      return { text: envelope.data.text, chips: envelope.data.buttons.map(buttonChip), cards: [] };
    case 'attachment':
      return { text: envelope.data.text ?? '', chips: [], ...safeAttachment(envelope.data.attachment), cards: [] };
    case 'list':
    case 'carousel':
      return { text: '', chips: [], cards: envelope.data.elements.map(({ buttons, ...card }) => ({ ...card, chips: (buttons ?? []).map(buttonChip) })) };
    default:
      return { text: botMessageText(message), chips: [], cards: [] };
  }
}

/**
 * A workflow's author writes the URLs a message carries, and the envelope schema takes any scheme
 * (`javascript:`, `data:`): a link is kept only when the panel may follow it, as in descriptions.
 */
function buttonChip(button: { type: 'postback'; title: string; payload: string } | { type: 'url'; title: string; url: string }): Chip {
  if (button.type === 'postback') return { title: button.title, payload: button.payload };
  const url = safeUrl(button.url);
  return url === null ? { title: button.title } : { title: button.title, url };
}

function safeAttachment(attachment: { kind: string; url: string; name?: string }): Pick<BotMessageView, 'attachment'> {
  const url = safeUrl(attachment.url);
  return url === null ? {} : { attachment: { ...attachment, url } };
}

/** The text a message puts in the conversation, as the host's history records it ('' for none). */
export function botMessageText(message: Record<string, unknown>): string {
  const text = (message.data as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}
