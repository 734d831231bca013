import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyExtensionInjections, isInjectable, MessageInboundEvent, WebSocketChannelHandler, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
// The built file, as discovery loads it (the source would bring its own copy of the SDK classes).
import WebChannel from '../../../../sdk/api/dist/extensions/channels/web/index.channel.js';

const SESSION = '6f1c2b1e-8a4b-4c55-9a53-1f0e2b3c4d5e';
const SOURCE = { id: '0b9d2c4e-1111-4222-8333-944455566677', ref: 'web-ref', settings: {}, active: true };
const channel = applyExtensionInjections(new WebChannel());

function decode(frame: unknown) {
  return channel.decodeFrame({ sessionId: SESSION, data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
}

test('the built-in web channel is an injectable WebSocket handler with text, quick replies, buttons and typing', () => {
  assert.ok(isInjectable(WebChannel));
  assert.ok(channel instanceof WebSocketChannelHandler);
  assert.equal(channel.name, 'web');
  const capabilities = channel.getCapabilities();
  assert.deepEqual(
    [capabilities.text, capabilities.quickReply, capabilities.buttons, capabilities.typingIndicator, capabilities.attachment],
    [true, true, true, true, false],
  );
  assert.deepEqual(channel.getSettings(SOURCE), { title: 'Chat', welcome_text: 'Hi! Send a message to start.' });
});

test('a message frame becomes a text event whose id is the session and the client id, sent by the session', () => {
  const [event] = decode({ type: 'message', id: 'm-1', text: 'hello' });
  assert.ok(event instanceof MessageInboundEvent);
  assert.equal(event.getEventId(), `${SESSION}:m-1`);
  assert.equal(event.getSenderForeignId(), SESSION);
  assert.deepEqual(event.getMessage(), { type: 'text', data: { text: 'hello' } });
});

test('a quick reply frame becomes a quickReply event whose text falls back to the payload', () => {
  const [withText] = decode({ type: 'quick_reply', id: 'q-1', text: 'Yes', payload: 'YES' });
  assert.deepEqual((withText as unknown as MessageInboundEvent).getMessage(), { type: 'quickReply', data: { text: 'Yes', payload: 'YES' } });
  const [payloadOnly] = decode({ type: 'quick_reply', id: 'q-2', payload: 'NO' });
  assert.deepEqual((payloadOnly as unknown as MessageInboundEvent).getMessage(), { type: 'quickReply', data: { text: 'NO', payload: 'NO' } });
});

for (const [label, frame, reason] of [
  ['not JSON', '{oops', /not valid JSON/],
  ['an unknown type', { type: 'shout', id: 'x', text: 'hi' }, /type/],
  ['a message without id', { type: 'message', text: 'hi' }, /id/],
  ['an id with a colon', { type: 'message', id: 'a:b', text: 'hi' }, /id/],
  ['blank text', { type: 'message', id: 'x', text: '   ' }, /text/],
] as const) {
  test(`a frame with ${label} is rejected as a payload the client got wrong`, () => {
    assert.throws(() => decode(frame), { code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED', message: reason });
  });
}

test('envelopes become the frames the chat page renders; attachments, lists and carousels are refused', () => {
  const cases: [StdOutgoingMessageEnvelope, unknown][] = [
    [{ type: 'text', data: { text: 'Hi' } }, { type: 'text', text: 'Hi' }],
    [
      { type: 'quickReply', data: { text: 'Pick', quickReplies: [{ title: 'A', payload: 'PA' }] } },
      { type: 'quick_reply', text: 'Pick', quickReplies: [{ title: 'A', payload: 'PA' }] },
    ],
    [
      { type: 'buttons', data: { text: 'Go', buttons: [{ type: 'url', title: 'Docs', url: 'https://example.org/' }] } },
      { type: 'buttons', text: 'Go', buttons: [{ type: 'url', title: 'Docs', url: 'https://example.org/' }] },
    ],
  ];
  for (const [envelope, frame] of cases) assert.deepEqual(JSON.parse(channel.encodeEnvelope(envelope) as string), frame);
  assert.throws(() => channel.encodeEnvelope({ type: 'list', data: { elements: [{ title: 'x' }] } }), { code: 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT' });
});

test('the subscriber of a session is anonymous, with the session as foreign id and channel attribute', () => {
  const [event] = decode({ type: 'message', id: 'm-2', text: 'hi' });
  const dto = channel.getSubscriberData(event!.bindSource(SOURCE)) as { foreignId: string; channel: unknown; source: string; firstName: string };
  assert.equal(dto.foreignId, SESSION);
  assert.equal(dto.firstName, '');
  assert.deepEqual(dto.channel, { name: 'web', session_id: SESSION });
  assert.equal(dto.source, SOURCE.id);
});
