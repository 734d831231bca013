import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installHostServices, type ChannelInboundEvent, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import nock from 'nock';
import { createChannel, createSource, installDirectEgress, postRequest } from './sample-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const PLATFORM = 'https://platform.example';
const settings = { api_key: 'key-1', webhook_secret: 'unused' };
const options = { idempotencyKey: 'out-1' };

useNockedEgress();

function incomingEvent(sourceSettings: Record<string, unknown> = settings): ChannelInboundEvent {
  const events = [{ id: 'evt-1', sender: { id: 'user-1' }, recipient: { id: 'bot-1' }, message: { text: 'hi' } }];
  const source = createSource(sourceSettings);
  const [event] = createChannel().decode(postRequest({ events }), source) as ChannelInboundEvent[];
  return event!.bindSource(source);
}

/** Answers the next send with `status` and `reply`, keeping what it received. */
function platformAnswers(status: number, reply: unknown, origin = PLATFORM, path = '/api/messages') {
  const received: { body?: string; headers?: Headers } = {};
  const scope = nock(origin)
    .post(path)
    .reply(async (request: Request) => {
      received.headers = request.headers;
      received.body = await request.text();
      return [status, reply];
    });
  return { scope, received };
}

test('posts a text message with the bearer key and returns the platform id as mid', async () => {
  const { scope, received } = platformAnswers(200, { id: 'mid-1' });
  const result = await createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options);
  assert.deepEqual(result, { mid: 'mid-1' });
  assert.ok(scope.isDone());
  assert.equal(received.body, '{"recipient":{"id":"user-1"},"message":{"text":"Hello"}}');
  assert.equal(received.headers?.get('authorization'), 'Bearer key-1');
  assert.equal(received.headers?.get('content-type'), 'application/json');
  assert.equal(received.headers?.get('idempotency-key'), 'out-1');
});

test('adds the quick replies to a quickReply message', async () => {
  const expected = {
    recipient: { id: 'user-1' },
    message: { text: 'Pick one', quick_replies: [{ title: 'One', payload: 'OPT_1' }, { title: 'Two', payload: 'OPT_2' }] },
  };
  const { scope, received } = platformAnswers(201, { id: 'mid-2' });
  const envelope: StdOutgoingMessageEnvelope = {
    type: 'quickReply',
    data: { text: 'Pick one', quickReplies: [{ title: 'One', payload: 'OPT_1' }, { title: 'Two', payload: 'OPT_2' }] },
  };
  assert.deepEqual(await createChannel().doSendMessage(incomingEvent(), envelope, options), { mid: 'mid-2' });
  assert.ok(scope.isDone());
  assert.deepEqual(JSON.parse(received.body!), expected);
});

test('sends to the api_url of the source, ignoring a trailing slash', async () => {
  const { scope } = platformAnswers(200, { id: 'mid-3' }, 'http://platform.test:8080', '/v2/messages');
  const event = incomingEvent({ ...settings, api_url: 'http://platform.test:8080/v2/' });
  assert.deepEqual(await createChannel().doSendMessage(event, { type: 'text', data: { text: 'x' } }, options), { mid: 'mid-3' });
  assert.ok(scope.isDone());
});

for (const status of [400, 401, 429, 500, 503]) {
  test(`throws PlatformResponseError naming HTTP ${status} when the platform answers it`, async () => {
    nock(PLATFORM).post('/api/messages').reply(status, { error: 'nope' });
    const sending = createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options);
    await assert.rejects(sending, (error: Error & { code?: string; status?: number }) => {
      assert.equal(error.name, 'PlatformResponseError');
      assert.equal(error.code, 'BOT_ERR_CHANNEL_PLATFORM_STATUS');
      assert.equal(error.status, status);
      assert.match(error.message, new RegExp(`HTTP ${status}`));
      return true;
    });
  });
}

for (const [retryAfter, expected] of [['7', 7_000], ['Wed, 21 Oct 2015 07:28:00 GMT', 0], [undefined, undefined], ['soon', undefined]] as const) {
  test(`a 429 with Retry-After ${retryAfter ?? '(none)'} carries retryAfterMs ${expected}, which the host honours`, async () => {
    nock(PLATFORM).post('/api/messages').reply(429, { error: 'slow down' }, retryAfter === undefined ? {} : { 'retry-after': retryAfter });
    const sending = createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options);
    await assert.rejects(sending, (error: Error & { retryAfterMs?: number }) => {
      assert.equal(error.retryAfterMs, expected);
      return true;
    });
  });
}

test('throws when the platform answers 2xx without a message id', async () => {
  nock(PLATFORM).post('/api/messages').reply(200, { ok: true });
  await assert.rejects(createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options), {
    code: 'SAMPLE_ERR_NO_MESSAGE_ID',
  });
});

const unsupported: StdOutgoingMessageEnvelope[] = [
  { type: 'buttons', data: { text: 'Pick', buttons: [{ type: 'postback', title: 'A', payload: 'A' }] } },
  { type: 'attachment', data: { attachment: { kind: 'image', url: 'https://files.example/a.png' } } },
  { type: 'list', data: { elements: [{ title: 'A' }] } },
  { type: 'carousel', data: { elements: [{ title: 'A' }] } },
];

for (const envelope of unsupported) {
  test(`throws UnsupportedOutgoingFormatError for the ${envelope.type} type without calling the platform`, async () => {
    await assert.rejects(createChannel().doSendMessage(incomingEvent(), envelope, options), {
      name: 'UnsupportedOutgoingFormatError',
      code: 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT',
    });
  });
}

test('declares text and quick replies up to 2000 characters, idempotent sends (it passes the key on), and nothing else', () => {
  assert.deepEqual(createChannel().getCapabilities(), {
    text: true,
    quickReply: true,
    buttons: false,
    attachment: false,
    list: false,
    carousel: false,
    typingIndicator: false,
    maxTextLength: 2000,
    idempotentSends: true,
  });
});

test('sends through the SDK fetch, so without a host to perform it the send fails with BOT_ERR_EGRESS_UNAVAILABLE', async () => {
  installHostServices(undefined);
  try {
    await assert.rejects(createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options), (error: Error & { code?: string; cause?: { code?: string } }) => {
      assert.equal(error.code, 'SAMPLE_ERR_PLATFORM_UNREACHABLE');
      assert.equal(error.cause?.code, 'BOT_ERR_EGRESS_UNAVAILABLE');
      return true;
    });
  } finally {
    installDirectEgress();
  }
});

test('an api_key no header can carry fails as not contacted, naming the header and the egress code, not as unreachable', async () => {
  const { scope } = platformAnswers(200, { id: 'never' });
  await assert.rejects(createChannel().doSendMessage(incomingEvent({ ...settings, api_key: 'key…' }), { type: 'text', data: { text: 'Hello' } }, options), (error: Error & { code?: string; cause?: { code?: string } }) => {
    assert.equal(error.code, 'SAMPLE_ERR_PLATFORM_UNREACHABLE');
    assert.equal(error.cause?.code, 'BOT_ERR_EGRESS_BAD_REQUEST');
    assert.match(error.message, /was not contacted \(BOT_ERR_EGRESS_BAD_REQUEST\): The request header "authorization" has a character a header cannot carry \(U\+2026\)/);
    assert.doesNotMatch(error.message, /could not be reached|key…/);
    return true;
  });
  assert.equal(scope.isDone(), false, 'nothing was sent');
});
