import type { OutgoingMessageType, StdOutgoingMessageEnvelope } from '@bot-ai/types';

const ELEMENTS = [
  { title: 'First', subtitle: 'The first one', imageUrl: 'https://example.com/first.png', buttons: [{ type: 'postback' as const, title: 'Take it', payload: 'TAKE_FIRST' }] },
  { title: 'Second', subtitle: 'The second one', imageUrl: 'https://example.com/second.png', buttons: [{ type: 'url' as const, title: 'Read', url: 'https://example.com/second' }] },
];

/**
 * One envelope of each outgoing type, as a workflow would send it: the author kit sends each type
 * a channel declares and expects the others to be refused.
 * @example await channel.send(event, source, CANONICAL_ENVELOPES.text, { idempotencyKey: 'k' });
 */
export const CANONICAL_ENVELOPES: Record<OutgoingMessageType, StdOutgoingMessageEnvelope> = {
  text: { type: 'text', data: { text: 'Hello from the channel check' } },
  quickReply: { type: 'quickReply', data: { text: 'Pick one', quickReplies: [{ title: 'Yes', payload: 'YES' }, { title: 'No', payload: 'NO' }] } },
  buttons: {
    type: 'buttons',
    data: { text: 'Choose', buttons: [{ type: 'postback', title: 'Start', payload: 'START' }, { type: 'url', title: 'Docs', url: 'https://example.com/docs' }] },
  },
  attachment: { type: 'attachment', data: { text: 'A picture', attachment: { kind: 'image', url: 'https://example.com/cat.png', name: 'cat.png', mimeType: 'image/png' } } },
  list: { type: 'list', data: { elements: ELEMENTS } },
  carousel: { type: 'carousel', data: { elements: ELEMENTS } },
};
