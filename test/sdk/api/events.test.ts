import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ChannelInboundEvent,
  MessageInboundEvent,
  SyntheticMessageInboundEvent,
  rebuildInboundEvent,
  type InboundEventContext,
} from '@bot-ai/api';

const context: InboundEventContext = {
  channelName: 'sample',
  rawEvent: { id: 'evt-1', nested: { a: [1, 2] } },
  channelAttributes: { tenant_id: 'acme', recipient_id: 'bot-1' },
  occurredAt: new Date('2026-11-22T10:00:00.000Z'),
  eventId: 'evt-1',
  senderForeignId: 'user-1',
  recipientForeignId: 'bot-1',
};
const source = { id: 'src-1', ref: 'ref-1', settings: { api_key: 'k' }, active: true };

describe('inbound events', () => {
  test('expose the context through the SPEC accessors', () => {
    const event = new MessageInboundEvent(context, { type: 'quickReply', data: { text: 'Yes', payload: 'YES' } }).bindSource(source);
    assert.equal(event.getSenderForeignId(), 'user-1');
    assert.deepEqual(event.getChannelData(), { tenant_id: 'acme', recipient_id: 'bot-1' });
    assert.equal(event.getSourceId(), 'src-1');
    assert.deepEqual(event.getSourceSettings(), { api_key: 'k' });
    assert.equal(event.getMessageType(), 'quickReply');
    assert.equal(event.getText(), 'Yes');
    assert.equal(event.getPayload(), 'YES');
  });

  test('refuse to name a source before the host binds one', () => {
    assert.throws(() => new ChannelInboundEvent(context).getSourceId(), /not bound to a source/);
  });

  const cases = [
    ['a channel event', new ChannelInboundEvent(context), ChannelInboundEvent],
    ['a message event', new MessageInboundEvent(context, { type: 'text', data: { text: 'hi' } }), MessageInboundEvent],
    ['a synthetic message', new SyntheticMessageInboundEvent(context, { type: 'text', data: { text: 'hi' } }), SyntheticMessageInboundEvent],
  ] as const;
  for (const [name, event, type] of cases) {
    test(`${name} survives a structured clone through its plain form`, () => {
      const plain = structuredClone(event.toPlain());
      const rebuilt = rebuildInboundEvent(plain);
      assert.equal(rebuilt.constructor, type);
      assert.deepEqual(rebuilt.toPlain(), event.toPlain());
      assert.equal(rebuilt.getOccurredAt().toISOString(), '2026-11-22T10:00:00.000Z');
    });
  }
});
