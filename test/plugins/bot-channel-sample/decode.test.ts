import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent, type ChannelInboundEvent, type StdIncomingMessage } from '@bot-ai/api';
import { createChannel, createSource, postRequest, readBatchedEvents } from './sample-fixtures.ts';

const channel = createChannel();

function decode(events: unknown, settings: Record<string, unknown> = {}): ChannelInboundEvent[] {
  return channel.decode(postRequest({ events }), createSource(settings)) as ChannelInboundEvent[];
}

function event(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 'evt-1',
    timestamp: 1763800000000,
    tenant_id: 'acme',
    sender: { id: 'user-1', first_name: 'Ada', last_name: 'Lovelace' },
    recipient: { id: 'bot-1' },
    ...overrides,
  };
}

const messages: Array<{ name: string; message: Record<string, unknown>; expected: StdIncomingMessage }> = [
  { name: 'text only as a text message', message: { text: 'hello' }, expected: { type: 'text', data: { text: 'hello' } } },
  {
    name: 'a payload only as a quick reply whose text is the payload',
    message: { payload: 'OPT_1' },
    expected: { type: 'quickReply', data: { text: 'OPT_1', payload: 'OPT_1' } },
  },
  {
    name: 'text and payload as a quick reply',
    message: { text: 'Option one', payload: 'OPT_1' },
    expected: { type: 'quickReply', data: { text: 'Option one', payload: 'OPT_1' } },
  },
];

for (const { name, message, expected } of messages) {
  test(`decodes ${name}`, () => {
    const [decoded, ...rest] = decode([event({ message })]);
    assert.equal(rest.length, 0);
    assert.ok(decoded instanceof MessageInboundEvent);
    assert.deepEqual(decoded.getMessage(), expected);
  });
}

test('builds the event context from the platform event', () => {
  const raw = event({ message: { text: 'hello', mid: 'm-1' } });
  const [decoded] = decode([raw]);
  assert.equal(decoded!.getChannelName(), 'sample');
  assert.equal(decoded!.getEventId(), 'evt-1');
  assert.equal(decoded!.getOccurredAt().toISOString(), new Date(1763800000000).toISOString());
  assert.equal(decoded!.getSenderForeignId(), 'user-1');
  assert.equal(decoded!.getRecipientForeignId(), 'bot-1');
  assert.deepEqual(decoded!.getChannelData(), { tenant_id: 'acme', recipient_id: 'bot-1' });
  assert.deepEqual(decoded!.getRawEvent(), raw);
});

const hi = { text: 'hi' };
const acmeOnly = { tenant_id: 'acme' };

const skipped: Array<{ name: string; raw: Record<string, unknown>; settings?: Record<string, unknown> }> = [
  { name: 'an event without a message', raw: event({ delivery: { mids: ['m-1'] } }) },
  { name: 'an event from another tenant', raw: event({ tenant_id: 'globex', message: hi }), settings: acmeOnly },
  { name: 'an event without a tenant when a tenant is set', raw: event({ tenant_id: undefined, message: hi }), settings: acmeOnly },
  { name: 'a message with neither text nor payload', raw: event({ message: { attachments: [] } }) },
  { name: 'a message whose text and payload are empty', raw: event({ message: { text: '', payload: '' } }) },
];

for (const { name, raw, settings } of skipped) {
  test(`skips ${name}`, () => {
    assert.deepEqual(decode([raw], settings), []);
  });
}

test('accepts every tenant when the tenant setting is empty', () => {
  const decoded = decode([event({ tenant_id: 'globex', message: hi }), event({ id: 'evt-2', tenant_id: undefined, message: hi })]);
  assert.deepEqual(decoded.map((e) => e.getEventId()), ['evt-1', 'evt-2']);
});

test('decodes a recorded batch into one event per message, in order', () => {
  const decoded = channel.decode(postRequest(readBatchedEvents()), createSource({ tenant_id: 'acme' })) as MessageInboundEvent[];
  assert.deepEqual(
    decoded.map((e) => [e.getEventId(), e.getSenderForeignId(), e.getMessageType(), e.getText(), e.getPayload()]),
    [
      ['evt-1', 'user-1', 'text', 'hello', undefined],
      ['evt-2', 'user-1', 'quickReply', 'Yes please', 'OPT_1'],
      ['evt-4', 'user-2', 'quickReply', 'OPT_2', 'OPT_2'],
    ],
  );
});

const badTimestamps: Array<[string, unknown]> = [
  ['absent', undefined],
  ['a string', '2025-11-22T08:00:00Z'],
  ['negative', -5],
  ['fractional', 1.5],
  ['beyond the Date range', 9e15],
  ['null', null],
];

for (const [name, timestamp] of badTimestamps) {
  test(`dates an event whose timestamp is ${name} at the current time`, () => {
    const before = Date.now();
    const [decoded] = decode([event({ timestamp, message: { text: 'hi' } })]);
    const at = decoded!.getOccurredAt().getTime();
    assert.ok(at >= before && at <= Date.now(), `occurredAt ${at} is not now`);
  });
}

const rejectedBodies: Array<[string, unknown]> = [
  ['events is an object', { events: { id: 'evt-1' } }],
  ['events is a string', { events: 'evt-1' }],
  ['events is absent', {}],
  ['the body is not an object', 'hello'],
  ['the body is not JSON', undefined],
  ['an event has no id', { events: [{ message: { text: 'hi' } }] }],
  ['an event is not an object', { events: [42] }],
  ['a message text is not a string', { events: [event({ message: { text: 42 } })] }],
];

for (const [name, body] of rejectedBodies) {
  test(`rejects the payload with PayloadRejectedError when ${name}`, () => {
    const request = { ...postRequest({}), body };
    assert.throws(() => channel.decode(request, createSource()), {
      name: 'PayloadRejectedError',
      code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED',
    });
  });
}
