import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { HttpChannelHandler, installHostServices, rebuildInboundEvent, type ChannelInboundEvent, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import SlackChannel from 'bot-channel-slack';
import nock from 'nock';
import { BOT_TOKEN, createChannel, createSource, decodeDelivery, installDirectEgress, SIGNING_SECRET, SLACK_API } from './slack-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const options = { idempotencyKey: 'out-1' };

useNockedEgress();

/** The event of a recorded delivery, as the host hands it to a send: rebuilt from plain data. */
function eventOf(file = 'message-im-text.json', settings: Record<string, unknown> = { signing_secret: SIGNING_SECRET, bot_token: BOT_TOKEN }): ChannelInboundEvent {
  const [event] = decodeDelivery(file);
  return rebuildInboundEvent(structuredClone(event!.toPlain())).bindSource(createSource(settings));
}

const OK = { ok: true, channel: 'D024BE91L', ts: '1503435956.000247', message: { type: 'message', text: 'x', ts: '1503435956.000247' } };

/** Answers the next chat.postMessage with `status` and `reply`, keeping what it received. */
function slackAnswers(status: number, reply: unknown, headers: Record<string, string> = {}, origin = SLACK_API, path = '/api/chat.postMessage') {
  const received: { body?: string; headers?: Headers } = {};
  const scope = nock(origin)
    .post(path)
    .reply(async (request: Request) => {
      received.headers = request.headers;
      received.body = await request.text();
      return [status, reply, headers];
    });
  return { scope, received };
}

async function send(envelope: StdOutgoingMessageEnvelope, event = eventOf(), channel = createChannel()) {
  return channel.doSendMessage(event, envelope, options);
}

test('posts a text message to the DM with the bot token, text escaped, and returns the ts as mid', async () => {
  const { scope, received } = slackAnswers(200, OK);
  assert.deepEqual(await send({ type: 'text', data: { text: 'Tom & Jerry <3 *bold*' } }), { mid: '1503435956.000247' });
  assert.ok(scope.isDone());
  assert.equal(received.body, '{"channel":"D024BE91L","text":"Tom &amp; Jerry &lt;3 *bold*"}');
  assert.equal(received.headers?.get('authorization'), `Bearer ${BOT_TOKEN}`);
  assert.equal(received.headers?.get('content-type'), 'application/json; charset=utf-8');
});

test('answers a message written in a thread in that thread', async () => {
  const { received } = slackAnswers(200, OK);
  await send({ type: 'text', data: { text: 'In the thread' } }, eventOf('app-mention-in-thread.json'));
  assert.deepEqual(JSON.parse(received.body!), { channel: 'C123ABC456', thread_ts: '1515449522.000016', text: 'In the thread' });
});

test('answers a button click in the conversation of the click', async () => {
  const { received } = slackAnswers(200, OK);
  await send({ type: 'text', data: { text: 'Noted' } }, eventOf('block-actions-button.json'));
  assert.deepEqual(JSON.parse(received.body!), { channel: 'D024BE91L', text: 'Noted' });
});

test('sends quick replies as a section and an actions block of buttons whose value is the payload', async () => {
  const { received } = slackAnswers(200, OK);
  await send({ type: 'quickReply', data: { text: 'Pick one', quickReplies: [{ title: 'Yes', payload: 'YES' }, { title: 'No', payload: 'NO' }] } });
  assert.deepEqual(JSON.parse(received.body!), {
    channel: 'D024BE91L',
    text: 'Pick one',
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: 'Pick one' } },
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'button_0', text: { type: 'plain_text', text: 'Yes', emoji: true }, value: 'YES' },
          { type: 'button', action_id: 'button_1', text: { type: 'plain_text', text: 'No', emoji: true }, value: 'NO' },
        ],
      },
    ],
  });
});

test('sends postback buttons with a value and URL buttons with the url', async () => {
  const { received } = slackAnswers(200, OK);
  const envelope: StdOutgoingMessageEnvelope = {
    type: 'buttons',
    data: { text: 'Choose', buttons: [{ type: 'postback', title: 'Start', payload: 'START' }, { type: 'url', title: 'Docs', url: 'https://example.com/docs?a=1&b=2' }] },
  };
  await send(envelope);
  assert.deepEqual(JSON.parse(received.body!), {
    channel: 'D024BE91L',
    text: 'Choose',
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: 'Choose' } },
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'button_0', text: { type: 'plain_text', text: 'Start', emoji: true }, value: 'START' },
          { type: 'button', action_id: 'button_1', text: { type: 'plain_text', text: 'Docs', emoji: true }, url: 'https://example.com/docs?a=1&b=2' },
        ],
      },
    ],
  });
});

test("keeps within Block Kit's limits: sections of 3000 characters not cut inside an escape, actions blocks of 25, button texts of 75", async () => {
  const { received } = slackAnswers(200, OK);
  const text = `${'a'.repeat(2998)}&${'b'.repeat(10)}`;
  const buttons = Array.from({ length: 26 }, (_, index) => ({ type: 'postback' as const, title: index === 0 ? 'x'.repeat(80) : `B${index}`, payload: `P${index}` }));
  await send({ type: 'buttons', data: { text, buttons } });
  const body = JSON.parse(received.body!) as { text: string; blocks: Array<{ type: string; text?: { text: string }; elements?: Array<{ text: { text: string }; action_id: string }> }> };
  assert.equal(body.text, `${'a'.repeat(2998)}&amp;${'b'.repeat(10)}`);
  assert.deepEqual(body.blocks.map((block) => block.type), ['section', 'section', 'actions', 'actions']);
  assert.equal(body.blocks[0]!.text!.text, 'a'.repeat(2998));
  assert.equal(body.blocks[1]!.text!.text, `&amp;${'b'.repeat(10)}`);
  assert.equal(body.blocks[2]!.elements!.length, 25);
  assert.equal(body.blocks[3]!.elements!.length, 1);
  assert.equal(body.blocks[3]!.elements![0]!.action_id, 'button_25');
  assert.equal(body.blocks[2]!.elements![0]!.text.text, `${'x'.repeat(74)}…`);
});

test('sends no empty section for quick replies without text', async () => {
  const { received } = slackAnswers(200, OK);
  await send({ type: 'quickReply', data: { text: '', quickReplies: [{ title: 'Go', payload: 'GO' }] } });
  assert.deepEqual((JSON.parse(received.body!) as { blocks: Array<{ type: string }> }).blocks.map((block) => block.type), ['actions']);
});

test('sends an image as an image block under its caption', async () => {
  const { received } = slackAnswers(200, OK);
  await send({ type: 'attachment', data: { text: 'A picture', attachment: { kind: 'image', url: 'https://host.test/download/cat.png', name: 'cat.png', mimeType: 'image/png' } } });
  assert.deepEqual(JSON.parse(received.body!), {
    channel: 'D024BE91L',
    text: 'A picture',
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: 'A picture' } },
      { type: 'image', image_url: 'https://host.test/download/cat.png', alt_text: 'cat.png' },
    ],
  });
});

test('sends an image without caption as the image block alone, named by its file name', async () => {
  const { received } = slackAnswers(200, OK);
  await send({ type: 'attachment', data: { attachment: { kind: 'image', url: 'https://host.test/download/cat.gif', name: 'cat.gif' } } });
  assert.deepEqual(JSON.parse(received.body!), {
    channel: 'D024BE91L',
    text: 'cat.gif',
    blocks: [{ type: 'image', image_url: 'https://host.test/download/cat.gif', alt_text: 'cat.gif' }],
  });
});

test('sends another file (or an image type Slack does not show) as a link under the caption', async () => {
  const first = slackAnswers(200, OK);
  await send({ type: 'attachment', data: { text: 'Your invoice', attachment: { kind: 'file', url: 'https://host.test/download/inv.pdf?sig=a|b&exp=1', name: 'invoice <March>.pdf', mimeType: 'application/pdf' } } });
  assert.deepEqual(JSON.parse(first.received.body!), { channel: 'D024BE91L', text: 'Your invoice\n<https://host.test/download/inv.pdf?sig=a%7Cb&amp;exp=1|invoice &lt;March&gt;.pdf>' });
  const second = slackAnswers(200, OK);
  await send({ type: 'attachment', data: { attachment: { kind: 'image', url: 'https://host.test/download/pic.webp', mimeType: 'image/webp' } } });
  assert.deepEqual(JSON.parse(second.received.body!), { channel: 'D024BE91L', text: '<https://host.test/download/pic.webp|https://host.test/download/pic.webp>' });
});

test('sends to the api_base_url of the source, ignoring a trailing slash', async () => {
  const { scope } = slackAnswers(200, OK, {}, 'http://slack-proxy.test:8080', '/slack/api/chat.postMessage');
  const event = eventOf('message-im-text.json', { bot_token: BOT_TOKEN, api_base_url: 'http://slack-proxy.test:8080/slack/api/' });
  await send({ type: 'text', data: { text: 'x' } }, event);
  assert.ok(scope.isDone());
});

test('an ok: false answer (HTTP 200) fails as SlackApiError naming the Slack error, a platform status the host knows was not delivered', async () => {
  slackAnswers(200, { ok: false, error: 'channel_not_found' });
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), (error: Error & { code?: string; slackError?: string; retryAfterMs?: number }) => {
    assert.equal(error.name, 'SlackApiError');
    assert.equal(error.code, 'BOT_ERR_CHANNEL_PLATFORM_STATUS');
    assert.equal(error.slackError, 'channel_not_found');
    assert.equal(error.message, 'Slack refused chat.postMessage: channel_not_found');
    assert.equal(error.retryAfterMs, undefined);
    return true;
  });
});

test('an ok: false ratelimited answer without Retry-After asks to retry after a second', async () => {
  slackAnswers(200, { ok: false, error: 'ratelimited' });
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), { name: 'SlackApiError', status: 429, retryAfterMs: 1000 });
});

test("a 429 carries Slack's Retry-After (seconds) as retryAfterMs", async () => {
  slackAnswers(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' });
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), (error: Error & { code?: string; status?: number; retryAfterMs?: number }) => {
    assert.equal(error.name, 'PlatformResponseError');
    assert.equal(error.code, 'BOT_ERR_CHANNEL_PLATFORM_STATUS');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 30_000);
    assert.match(error.message, /HTTP 429.*ratelimited/);
    return true;
  });
});

for (const status of [500, 502, 503]) {
  test(`an HTTP ${status} fails as PlatformResponseError naming the status`, async () => {
    slackAnswers(status, { error: 'unavailable' });
    await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), { name: 'PlatformResponseError', code: 'BOT_ERR_CHANNEL_PLATFORM_STATUS', status });
  });
}

test('an ok answer without a ts fails with SLACK_ERR_NO_MESSAGE_ID', async () => {
  slackAnswers(200, { ok: true });
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), { code: 'SLACK_ERR_NO_MESSAGE_ID' });
});

test('an answer that is not a Web API answer fails with SLACK_ERR_BAD_ANSWER', async () => {
  slackAnswers(200, '<html>proxy error</html>');
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), { code: 'SLACK_ERR_BAD_ANSWER' });
});

for (const envelope of [
  { type: 'list', data: { elements: [{ title: 'A' }] } },
  { type: 'carousel', data: { elements: [{ title: 'A' }] } },
] as StdOutgoingMessageEnvelope[]) {
  test(`throws UnsupportedOutgoingFormatError for ${envelope.type} without calling Slack`, async () => {
    const { scope } = slackAnswers(200, OK);
    await assert.rejects(send(envelope), { name: 'UnsupportedOutgoingFormatError', code: 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT' });
    assert.equal(scope.isDone(), false);
  });
}

test('sends through the SDK fetch: without a host to perform it the send fails with SLACK_ERR_UNREACHABLE (BOT_ERR_EGRESS_UNAVAILABLE)', async () => {
  installHostServices(undefined);
  try {
    await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), (error: Error & { code?: string; cause?: { code?: string } }) => {
      assert.equal(error.code, 'SLACK_ERR_UNREACHABLE');
      assert.equal(error.cause?.code, 'BOT_ERR_EGRESS_UNAVAILABLE');
      return true;
    });
  } finally {
    installDirectEgress();
  }
});

// A real socket rather than nock: nock's delayed replies trip an assertion inside undici when
// the request is aborted.
test('gives up on a Slack that does not answer within the call timeout', async (t) => {
  nock.enableNetConnect('127.0.0.1');
  t.after(() => nock.disableNetConnect());
  const server = createServer(() => {}); // never answers
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  server.on('connection', (socket) => t.after(() => socket.destroy()));
  const { port } = server.address() as AddressInfo;
  const channel = createChannel();
  channel.callTimeoutMs = 100;
  const event = eventOf('message-im-text.json', { bot_token: BOT_TOKEN, api_base_url: `http://127.0.0.1:${port}/api` });
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }, event, channel), { code: 'SLACK_ERR_UNREACHABLE', message: /did not answer within 100 ms/ });
});

test('has no typing indicator: the capability is off and sendTypingIndicator is the SDK no-op, calling nothing', async () => {
  const channel = createChannel();
  assert.equal(channel.getCapabilities().typingIndicator, false);
  assert.equal(SlackChannel.prototype.sendTypingIndicator, HttpChannelHandler.prototype.sendTypingIndicator);
  const { scope } = slackAnswers(200, OK);
  await channel.sendTypingIndicator(eventOf());
  assert.equal(scope.isDone(), false);
});
