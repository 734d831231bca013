import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';

/** What the outbox needs of a channel's capabilities (what its description declares it can send). */
export interface SendCapabilities {
  quickReply?: boolean;
  buttons?: boolean;
  maxTextLength?: number;
  [type: string]: unknown;
}

/**
 * Turns one envelope into what the channel can take: quick replies or buttons the channel does
 * not support degrade to their text (the words still reach the subscriber), and a text longer
 * than `maxTextLength` is split at whitespace into several messages, options on the last one.
 */
export function fitToCapabilities(envelope: StdOutgoingMessageEnvelope, capabilities: SendCapabilities): StdOutgoingMessageEnvelope[] {
  const fitted = degrade(envelope, capabilities);
  if (!('text' in fitted.data) || typeof fitted.data.text !== 'string') return [fitted];
  const chunks = splitText(fitted.data.text, capabilities.maxTextLength ?? 0);
  if (chunks.length === 1) return [fitted];
  return chunks.map((text, index) =>
    index === chunks.length - 1 ? ({ ...fitted, data: { ...fitted.data, text } } as StdOutgoingMessageEnvelope) : { type: 'text', data: { text } },
  );
}

function degrade(envelope: StdOutgoingMessageEnvelope, capabilities: SendCapabilities): StdOutgoingMessageEnvelope {
  if (envelope.type === 'quickReply' && capabilities.quickReply === false) return { type: 'text', data: { text: envelope.data.text } };
  if (envelope.type === 'buttons' && capabilities.buttons === false) return { type: 'text', data: { text: envelope.data.text } };
  return envelope;
}

/** A reply is never more than this many messages: a runaway text is cut, not sent as thousands. */
export const MAX_PARTS = 20;

/**
 * Splits at the last whitespace before the limit (or hard at the limit in one long word); 0 = no
 * limit. Past MAX_PARTS messages the rest is cut and the last message ends with "…".
 */
export function splitText(text: string, maxLength: number): string[] {
  if (maxLength <= 0 || text.length <= maxLength) return [text];
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > maxLength) {
    if (chunks.length === MAX_PARTS - 1) return [...chunks, `${rest.slice(0, maxLength - 1).trimEnd()}…`];
    const window = rest.slice(0, maxLength + 1);
    const cut = window.search(/\s\S*$/);
    const end = cut > 0 ? cut : maxLength;
    chunks.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end).trimStart();
  }
  if (rest.length > 0) chunks.push(rest);
  return chunks;
}
