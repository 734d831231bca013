import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent, rebuildInboundEvent, subscriberCreateDtoSchema, type ChannelInboundEvent } from '@bot-ai/api';
import nock from 'nock';
import { ADA_ID, botApiAnswers, createChannel, createSource, decodeOne, deliveryBody, SETTINGS } from './telegram-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

/** Decodes a body, then rebuilds the event from plain data, as the host does across the worker boundary. */
function storedEvent(body: unknown, settings: Record<string, unknown> = SETTINGS): ChannelInboundEvent {
  const source = createSource(settings);
  return rebuildInboundEvent(structuredClone(decodeOne(body, source).toPlain())).bindSource(source);
}

const profile = { ok: true, result: { id: ADA_ID, first_name: 'Ada', last_name: 'Lovelace', username: 'ada_l', type: 'private', accent_color_id: 3, max_reaction_count: 11 } };

test('takes the names from getChat { chat_id: <user id> }, the locale from the update, and no avatar', async () => {
  const { scope, received } = botApiAnswers('getChat', 200, profile);
  const dto = await createChannel().getSubscriberData(storedEvent(deliveryBody('text-message.json')));
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { chat_id: ADA_ID });
  assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
  assert.partialDeepStrictEqual(dto, {
    foreignId: String(ADA_ID),
    firstName: 'Ada',
    lastName: 'Lovelace',
    avatar: null,
    locale: 'en',
    language: 'en',
    channel: { name: 'telegram', chat_id: ADA_ID },
    source: 'source-1',
    labels: [],
  });
  assert.equal(dto.lastvisit.toISOString(), new Date(1763800000 * 1000).toISOString());
});

test('asks getChat about the user, not the group, for a group message; the subscriber keeps the group chat', async () => {
  const { received } = botApiAnswers('getChat', 200, profile);
  const dto = await createChannel().getSubscriberData(storedEvent(deliveryBody('group-text-message.json')));
  assert.deepEqual(received.body, { chat_id: ADA_ID });
  assert.deepEqual(dto.channel, { name: 'telegram', chat_id: -1001234567890 });
});

const failures: Array<{ name: string; answer: () => void }> = [
  { name: 'getChat answers 500', answer: () => botApiAnswers('getChat', 500, { ok: false, error_code: 500, description: 'Internal Server Error' }) },
  { name: 'getChat answers 429', answer: () => botApiAnswers('getChat', 429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } }) },
  { name: 'the user blocked the bot (403)', answer: () => botApiAnswers('getChat', 403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' }) },
  { name: 'getChat answers without a first_name', answer: () => botApiAnswers('getChat', 200, { ok: true, result: { id: ADA_ID, type: 'private' } }) },
  { name: 'getChat answers something that is not JSON', answer: () => botApiAnswers('getChat', 200, '<html>proxy</html>') },
  { name: 'the Bot API cannot be reached', answer: () => nock('https://api.telegram.org').post(/getChat$/).replyWithError('connect ECONNREFUSED') },
];

for (const { name, answer } of failures) {
  test(`falls back to the names in the update when ${name}`, async () => {
    answer();
    const body = deliveryBody('text-message.json');
    (body.message as { from: Record<string, unknown> }).from.last_name = 'L.';
    const dto = await createChannel().getSubscriberData(storedEvent(body));
    assert.ok(subscriberCreateDtoSchema.safeParse(dto).success);
    assert.partialDeepStrictEqual(dto, { foreignId: String(ADA_ID), firstName: 'Ada', lastName: 'L.', locale: 'en', avatar: null });
  });
}

test('falls back without calling Telegram when the source has no bot token', async () => {
  const dto = await createChannel().getSubscriberData(storedEvent(deliveryBody('text-message.json'), { secret_token: 'x' }));
  assert.equal(dto.firstName, 'Ada');
  assert.equal(dto.lastName, '');
});

test('a button press gives the presser, with a regional locale and its language', async () => {
  botApiAnswers('getChat', 500, { ok: false });
  const body = deliveryBody('callback-query.json');
  (body.callback_query as { from: Record<string, unknown> }).from.language_code = 'pt-br';
  const dto = await createChannel().getSubscriberData(storedEvent(body));
  assert.partialDeepStrictEqual(dto, { foreignId: String(ADA_ID), firstName: 'Ada', locale: 'pt-br', language: 'pt', channel: { name: 'telegram', chat_id: ADA_ID } });
});

test('leaves the locale empty when the user shares no language_code', async () => {
  botApiAnswers('getChat', 200, profile);
  const body = deliveryBody('text-message.json');
  delete (body.message as { from: Record<string, unknown> }).from.language_code;
  const dto = await createChannel().getSubscriberData(storedEvent(body));
  assert.equal(dto.locale, '');
  assert.equal(dto.language, '');
});

test('refuses to build a subscriber for an event without a sender, without calling Telegram', async () => {
  const source = createSource();
  const event = new MessageInboundEvent(
    { channelName: 'telegram', rawEvent: {}, channelAttributes: { chat_id: 1 }, occurredAt: new Date(), eventId: 'e1' },
    { type: 'text', data: { text: 'hi' } },
  ).bindSource(source);
  await assert.rejects(Promise.resolve().then(() => createChannel().getSubscriberData(event)), { code: 'TELEGRAM_ERR_NO_SENDER' });
});
