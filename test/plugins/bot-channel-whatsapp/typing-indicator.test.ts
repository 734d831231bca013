import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent } from '@bot-ai/api';
import nock from 'nock';
import { createChannel, createSource, decodeDelivery, GRAPH, PHONE_NUMBER_ID, SETTINGS } from './whatsapp-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const SEND_PATH = `/v21.0/${PHONE_NUMBER_ID}/messages`;

useNockedEgress();

test('marks the inbound message read with a text typing indicator, through the messages endpoint', async () => {
  let received: unknown;
  let authorization: string | null | undefined;
  const scope = nock(GRAPH)
    .post(SEND_PATH)
    .reply(async (request: Request) => {
      received = JSON.parse(await request.text());
      authorization = request.headers.get('authorization');
      return [200, { success: true }];
    });
  const [event] = decodeDelivery('text.json');
  await createChannel().sendTypingIndicator(event!);
  assert.ok(scope.isDone());
  assert.equal(authorization, 'Bearer EAAtoken');
  assert.deepEqual(received, {
    messaging_product: 'whatsapp',
    status: 'read',
    message_id: 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUZCQjU1MjYxMjc0RjVGQ0E4MAA=',
    typing_indicator: { type: 'text' },
  });
});

test('sends nothing for an event the host made up (its id is not a wamid)', async () => {
  const scope = nock(GRAPH).post(SEND_PATH).reply(200, { success: true });
  const event = new MessageInboundEvent(
    { channelName: 'whatsapp', rawEvent: {}, channelAttributes: {}, occurredAt: new Date(), eventId: 'test-run-1', senderForeignId: '16505551234' },
    { type: 'text', data: { text: 'hi' } },
  ).bindSource(createSource(SETTINGS));
  await createChannel().sendTypingIndicator(event);
  assert.equal(scope.isDone(), false);
});

test('lets a failed typing call fail with the platform status (the host neither waits for it nor retries it)', async () => {
  nock(GRAPH).post(SEND_PATH).reply(400, { error: { code: 100, message: 'Invalid parameter' } });
  const [event] = decodeDelivery('text.json');
  await assert.rejects(createChannel().sendTypingIndicator(event!), { name: 'PlatformResponseError', status: 400 });
});
