import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rebuildInboundEvent, subscriberCreateDtoSchema, type ChannelInboundEvent } from '@bot-ai/api';
import { createChannel, createSource, postRequest } from './sample-fixtures.ts';

const channel = createChannel();
const source = createSource({ tenant_id: 'acme' });

/** Decodes one event, then rebuilds it from plain data, as the host does across the worker boundary. */
function decodedEvent(raw: Record<string, unknown>): ChannelInboundEvent {
  const [event] = channel.decode(postRequest({ events: [raw] }), source) as ChannelInboundEvent[];
  return rebuildInboundEvent(structuredClone(event!.toPlain())).bindSource(source);
}

const base = { id: 'evt-1', timestamp: 1763800000000, tenant_id: 'acme', recipient: { id: 'bot-1' }, message: { text: 'hi' } };

test('builds a valid subscriber from the sender, with the sample channel attributes', () => {
  const sender = { id: 'user-1', first_name: 'Ada', last_name: 'Lovelace' };
  const dto = channel.getSubscriberData(decodedEvent({ ...base, sender }));
  assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
  assert.partialDeepStrictEqual(dto, {
    foreignId: 'user-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    channel: { name: 'sample', tenant_id: 'acme', recipient_id: 'bot-1' },
    source: 'source-1',
    labels: [],
  });
});

test('leaves the names empty when the sender has none, and still validates', () => {
  const dto = channel.getSubscriberData(decodedEvent({ ...base, sender: { id: 'user-2' } }));
  assert.ok(subscriberCreateDtoSchema.safeParse(dto).success);
  assert.equal(dto.firstName, '');
  assert.equal(dto.lastName, '');
});

test('refuses to build a subscriber for an event without a sender', () => {
  assert.throws(() => channel.getSubscriberData(decodedEvent(base)), { code: 'SAMPLE_ERR_NO_SENDER' });
});
