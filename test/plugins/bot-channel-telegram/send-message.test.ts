import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { installHostServices, MessageInboundEvent, rebuildInboundEvent, type ChannelInboundEvent, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import nock from 'nock';
import {
  ADA_ID,
  BOT_TOKEN,
  botApiAnswers,
  createSource,
  createUnpacedChannel,
  decodeOne,
  deliveredEvent,
  installDirectEgress,
  SETTINGS,
  sentMessage,
} from './telegram-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const options = { idempotencyKey: 'out-1' };

useNockedEgress();

function send(event: ChannelInboundEvent, envelope: StdOutgoingMessageEnvelope) {
  return createUnpacedChannel().doSendMessage(event, envelope, options);
}

const text = (value: string): StdOutgoingMessageEnvelope => ({ type: 'text', data: { text: value } });

test('sends text with sendMessage { chat_id, text } as JSON and returns the message_id as mid', async () => {
  const { scope, received } = botApiAnswers('sendMessage', 200, sentMessage(1401));
  assert.deepEqual(await send(deliveredEvent('text-message.json'), text('Hello')), { mid: '1401' });
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { chat_id: ADA_ID, text: 'Hello' });
  assert.equal(received.headers?.get('content-type'), 'application/json');
});

test('answers a group message in the group (its chat_id), not in private', async () => {
  const { scope, received } = botApiAnswers('sendMessage', 200, sentMessage(77, -1001234567890));
  await send(deliveredEvent('group-text-message.json'), text('Hi all'));
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { chat_id: -1001234567890, text: 'Hi all' });
});

test('answers an event rebuilt from plain data (as the host stores it)', async () => {
  const source = createSource();
  const event = rebuildInboundEvent(structuredClone(deliveredEvent('text-message.json').toPlain())).bindSource(source);
  const { scope, received } = botApiAnswers('sendMessage', 200, sentMessage(5));
  await send(event, text('Again'));
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { chat_id: ADA_ID, text: 'Again' });
});

test("answers a synthetic event without a chat_id in the sender's private chat", async () => {
  const source = createSource();
  const event = new MessageInboundEvent(
    { channelName: 'telegram', rawEvent: {}, channelAttributes: {}, occurredAt: new Date(), eventId: 'test-run-1', senderForeignId: '555' },
    { type: 'text', data: { text: 'hi' } },
  ).bindSource(source);
  const { scope, received } = botApiAnswers('sendMessage', 200, sentMessage(6, 555));
  await send(event, text('Hello'));
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { chat_id: 555, text: 'Hello' });
});

test('refuses an event with neither a chat_id nor a numeric sender, without calling Telegram', async () => {
  const event = new MessageInboundEvent(
    { channelName: 'telegram', rawEvent: {}, channelAttributes: {}, occurredAt: new Date(), eventId: 'e', senderForeignId: 'web-session' },
    { type: 'text', data: { text: 'hi' } },
  ).bindSource(createSource());
  await assert.rejects(send(event, text('Hello')), { code: 'TELEGRAM_ERR_NO_CHAT' });
});

test('sends quick replies as an inline keyboard, one button per row, with the payload as callback_data', async () => {
  const { received } = botApiAnswers('sendMessage', 200, sentMessage(1402));
  const envelope: StdOutgoingMessageEnvelope = { type: 'quickReply', data: { text: 'Pick one', quickReplies: [{ title: 'Yes', payload: 'YES' }, { title: 'No', payload: 'NO' }] } };
  assert.deepEqual(await send(deliveredEvent('text-message.json'), envelope), { mid: '1402' });
  assert.deepEqual(received.body, {
    chat_id: ADA_ID,
    text: 'Pick one',
    reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'YES' }], [{ text: 'No', callback_data: 'NO' }]] },
  });
});

test('sends postback buttons with callback_data and url buttons with url', async () => {
  const { received } = botApiAnswers('sendMessage', 200, sentMessage(1403));
  const envelope: StdOutgoingMessageEnvelope = {
    type: 'buttons',
    data: { text: 'Choose', buttons: [{ type: 'postback', title: 'Start', payload: 'START' }, { type: 'url', title: 'Docs', url: 'https://example.com/docs' }] },
  };
  await send(deliveredEvent('text-message.json'), envelope);
  assert.deepEqual(received.body, {
    chat_id: ADA_ID,
    text: 'Choose',
    reply_markup: { inline_keyboard: [[{ text: 'Start', callback_data: 'START' }], [{ text: 'Docs', url: 'https://example.com/docs' }]] },
  });
});

test('accepts a payload of exactly 64 bytes, counted in UTF-8', async () => {
  const payload = 'é'.repeat(32); // 64 bytes, 32 characters
  const { scope } = botApiAnswers('sendMessage', 200, sentMessage(1));
  await send(deliveredEvent('text-message.json'), { type: 'quickReply', data: { text: 'Pick', quickReplies: [{ title: 'É', payload }] } });
  assert.ok(scope.isDone());
});

const tooLong: Array<[string, StdOutgoingMessageEnvelope]> = [
  ['a quick reply', { type: 'quickReply', data: { text: 'Pick', quickReplies: [{ title: 'Long', payload: 'é'.repeat(32) + 'x' }] } }],
  ['a postback button', { type: 'buttons', data: { text: 'Pick', buttons: [{ type: 'postback', title: 'Long', payload: 'P'.repeat(65) }] } }],
];

for (const [name, envelope] of tooLong) {
  test(`refuses ${name} whose payload is over 64 bytes with a clear ChannelError, before calling Telegram`, async () => {
    await assert.rejects(send(deliveredEvent('text-message.json'), envelope), { code: 'TELEGRAM_ERR_PAYLOAD_TOO_LONG', message: /"Long".*65 bytes.*at most 64/ });
  });
}

const attachments: Array<{ kind: 'image' | 'audio' | 'video' | 'file'; method: string; field: string }> = [
  { kind: 'image', method: 'sendPhoto', field: 'photo' },
  { kind: 'audio', method: 'sendAudio', field: 'audio' },
  { kind: 'video', method: 'sendVideo', field: 'video' },
  { kind: 'file', method: 'sendDocument', field: 'document' },
];

for (const { kind, method, field } of attachments) {
  test(`sends a ${kind} attachment with ${method} by URL, its text as the caption`, async () => {
    const url = `https://host.test/download/${kind}-1`;
    const { scope, received } = botApiAnswers(method, 200, sentMessage(1500));
    const envelope: StdOutgoingMessageEnvelope = { type: 'attachment', data: { text: 'Here it is', attachment: { kind, url, name: 'x', mimeType: 'x/y' } } };
    assert.deepEqual(await send(deliveredEvent('text-message.json'), envelope), { mid: '1500' });
    assert.ok(scope.isDone());
    assert.deepEqual(received.body, { chat_id: ADA_ID, [field]: url, caption: 'Here it is' });
  });
}

test('sends an attachment without text without a caption', async () => {
  const { received } = botApiAnswers('sendPhoto', 200, sentMessage(1501));
  await send(deliveredEvent('text-message.json'), { type: 'attachment', data: { attachment: { kind: 'image', url: 'https://host.test/download/a' } } });
  assert.deepEqual(received.body, { chat_id: ADA_ID, photo: 'https://host.test/download/a' });
});

test('refuses a caption over 1024 characters with a clear ChannelError, before calling Telegram', async () => {
  const envelope: StdOutgoingMessageEnvelope = { type: 'attachment', data: { text: 'x'.repeat(1025), attachment: { kind: 'image', url: 'https://host.test/a' } } };
  await assert.rejects(send(deliveredEvent('text-message.json'), envelope), { code: 'TELEGRAM_ERR_CAPTION_TOO_LONG', message: /1025 characters.*at most 1024/ });
});

const unsupported: StdOutgoingMessageEnvelope[] = [
  { type: 'list', data: { elements: [{ title: 'A' }] } },
  { type: 'carousel', data: { elements: [{ title: 'A' }] } },
];

for (const envelope of unsupported) {
  test(`throws UnsupportedOutgoingFormatError for the ${envelope.type} type without calling Telegram`, async () => {
    await assert.rejects(send(deliveredEvent('text-message.json'), envelope), { name: 'UnsupportedOutgoingFormatError', code: 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT' });
  });
}

test("a 429 carries Telegram's retry_after (seconds, in the body) as retryAfterMs", async () => {
  const tooMany = { ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } };
  botApiAnswers('sendMessage', 429, tooMany);
  await assert.rejects(send(deliveredEvent('text-message.json'), text('Hello')), (error: Error & { code?: string; status?: number; retryAfterMs?: number }) => {
    assert.equal(error.name, 'PlatformResponseError');
    assert.equal(error.code, 'BOT_ERR_CHANNEL_PLATFORM_STATUS');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 7_000);
    assert.match(error.message, /retry after 7/);
    return true;
  });
});

test('a 429 without parameters falls back to a Retry-After header', async () => {
  botApiAnswers('sendMessage', 429, { ok: false, error_code: 429, description: 'Too Many Requests' }, { headers: { 'retry-after': '3' } });
  await assert.rejects(send(deliveredEvent('text-message.json'), text('Hello')), { status: 429, retryAfterMs: 3_000 });
});

for (const status of [400, 403, 500, 502, 503]) {
  test(`throws PlatformResponseError naming HTTP ${status} and Telegram's description`, async () => {
    botApiAnswers('sendMessage', status, { ok: false, error_code: status, description: `Error ${status}: something` });
    await assert.rejects(send(deliveredEvent('text-message.json'), text('Hello')), (error: Error & { code?: string; status?: number; retryAfterMs?: number }) => {
      assert.equal(error.code, 'BOT_ERR_CHANNEL_PLATFORM_STATUS');
      assert.equal(error.status, status);
      assert.equal(error.retryAfterMs, undefined);
      assert.match(error.message, new RegExp(`HTTP ${status}.*Error ${status}: something`));
      return true;
    });
  });
}

test('throws TELEGRAM_ERR_NO_MESSAGE_ID when Telegram answers ok without a message_id', async () => {
  botApiAnswers('sendMessage', 200, { ok: true, result: true });
  await assert.rejects(send(deliveredEvent('text-message.json'), text('Hello')), { code: 'TELEGRAM_ERR_NO_MESSAGE_ID' });
});

test('throws TELEGRAM_ERR_BAD_ANSWER when a 2xx answer is not { ok: true }', async () => {
  botApiAnswers('sendMessage', 200, { ok: false, description: 'odd proxy' });
  await assert.rejects(send(deliveredEvent('text-message.json'), text('Hello')), { code: 'TELEGRAM_ERR_BAD_ANSWER', message: /odd proxy/ });
});

test('refuses to send without a bot token, without calling Telegram', async () => {
  const source = createSource({ secret_token: SETTINGS.secret_token });
  await assert.rejects(send(deliveredEvent('text-message.json', source), text('Hello')), { code: 'TELEGRAM_ERR_NO_BOT_TOKEN' });
});

test('calls the api_base_url of the source (a local Bot API server), ignoring a trailing slash', async () => {
  const source = createSource({ ...SETTINGS, api_base_url: 'http://bot-api.internal:8081/' });
  const { scope } = botApiAnswers('sendMessage', 200, sentMessage(9), { origin: 'http://bot-api.internal:8081' });
  assert.deepEqual(await send(deliveredEvent('text-message.json', source), text('Hello')), { mid: '9' });
  assert.ok(scope.isDone());
});

test('acknowledges a button press with answerCallbackQuery on the first reply only', async () => {
  const channel = createUnpacedChannel();
  const event = deliveredEvent('callback-query.json');
  const acks: unknown[] = [];
  nock('https://api.telegram.org')
    .post(`/bot${BOT_TOKEN}/answerCallbackQuery`)
    .times(2)
    .reply(async (request: Request) => {
      acks.push(JSON.parse(await request.text()));
      return [200, { ok: true, result: true }];
    });
  const sends = nock('https://api.telegram.org').post(`/bot${BOT_TOKEN}/sendMessage`).times(2).reply(200, sentMessage(11));
  await channel.doSendMessage(event, text('You chose yes'), options);
  await channel.doSendMessage(event, text('Anything else?'), options);
  assert.ok(sends.isDone());
  assert.deepEqual(acks, [{ callback_query_id: '530219687212745310' }]);
});

test('a failing acknowledgement does not fail the reply', async () => {
  nock('https://api.telegram.org').post(`/bot${BOT_TOKEN}/answerCallbackQuery`).reply(400, { ok: false, error_code: 400, description: 'Bad Request: query is too old' });
  const { scope } = botApiAnswers('sendMessage', 200, sentMessage(12));
  assert.deepEqual(await send(deliveredEvent('callback-query.json'), text('Late answer')), { mid: '12' });
  assert.ok(scope.isDone());
});

test('a reply to a message calls no answerCallbackQuery', async () => {
  const { scope } = botApiAnswers('sendMessage', 200, sentMessage(13));
  let acknowledged = false;
  nock('https://api.telegram.org').post(`/bot${BOT_TOKEN}/answerCallbackQuery`).optionally().reply(() => {
    acknowledged = true;
    return [200, { ok: true, result: true }];
  });
  await send(decodeOne({ update_id: 5, message: { message_id: 1, from: { id: ADA_ID, first_name: 'Ada' }, chat: { id: ADA_ID }, date: 1, text: 'hi' } }), text('Hi'));
  assert.ok(scope.isDone());
  assert.equal(acknowledged, false);
});

// A real socket rather than nock: nock's delayed replies trip an assertion inside undici when
// the request is aborted.
test('gives up on a Bot API that does not answer within callTimeoutMs, without naming the token', async (t) => {
  const server = createServer(() => {}); // never answers
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  server.on('connection', (socket) => t.after(() => socket.destroy()));
  nock.enableNetConnect('127.0.0.1');
  t.after(() => nock.disableNetConnect());
  const { port } = server.address() as AddressInfo;
  const source = createSource({ ...SETTINGS, api_base_url: `http://127.0.0.1:${port}` });
  const channel = createUnpacedChannel();
  channel.callTimeoutMs = 100;
  await assert.rejects(channel.doSendMessage(deliveredEvent('text-message.json', source), text('Hello'), options), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'TELEGRAM_ERR_UNREACHABLE');
    assert.match(error.message, /did not answer within 100 ms/);
    assert.ok(!error.message.includes(BOT_TOKEN));
    return true;
  });
});

test('sends through the SDK fetch: without a host to perform it the send fails with BOT_ERR_EGRESS_UNAVAILABLE', async () => {
  installHostServices(undefined);
  try {
    await assert.rejects(send(deliveredEvent('text-message.json'), text('Hello')), (error: Error & { code?: string; cause?: { code?: string } }) => {
      assert.equal(error.code, 'TELEGRAM_ERR_UNREACHABLE');
      assert.equal(error.cause?.code, 'BOT_ERR_EGRESS_UNAVAILABLE');
      return true;
    });
  } finally {
    installDirectEgress();
  }
});
