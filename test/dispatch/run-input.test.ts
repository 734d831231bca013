import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toRunInput } from '../../host/dispatch/inbound-event-processor.ts';

const base = { kind: 'message' as const, channelName: 'telegram', rawEvent: {}, channelAttributes: {}, occurredAt: '2026-11-26T10:00:00.000Z', eventId: '1', senderForeignId: 'u-1' };

test('a shared place reaches the workflow as $input.location, its caption as $input.text', () => {
  const location = { latitude: 48.8584, longitude: 2.2945, title: 'Eiffel Tower', address: 'Champ de Mars' };
  const input = toRunInput({ ...base, message: { type: 'location', data: { text: 'here', location } } });
  assert.deepEqual([input.message_type, input.text, input.location], ['location', 'here', location]);
});

test('a button or postback reaches the workflow as $input.payload', () => {
  const input = toRunInput({ ...base, message: { type: 'quickReply', data: { text: 'Start', payload: 'START' } } });
  assert.deepEqual([input.message_type, input.text, input.payload, input.location], ['quickReply', 'Start', 'START', undefined]);
});
