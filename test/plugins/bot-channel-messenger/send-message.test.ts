import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import nock from 'nock';
import { ADA, createChannel, graphAnswers, PAGE_TOKEN, SEND_SETTINGS, storedEvent } from './messenger-test-kit.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const options = { idempotencyKey: 'out-1' };
const SENT = { recipient_id: ADA, message_id: 'm_AG5Hz2Uq7tuwNEhXfYYKj8mJEM_QPpz5jdCK48PnKAjSdjfipqxqMvK8ma6AC8fplwlqLP_5cgXIbu7I3rBN0P' };

useNockedEgress();

function send(envelope: StdOutgoingMessageEnvelope, settings: Record<string, unknown> = SEND_SETTINGS) {
  return createChannel().doSendMessage(storedEvent('text.json', settings), envelope, options);
}

const cards = [
  { title: 'Linen shirt', subtitle: 'Sand, all sizes', imageUrl: 'https://shop.example.com/shirt.png', buttons: [{ type: 'postback' as const, title: 'Buy', payload: 'BUY_118' }] },
  { title: 'Straw hat', buttons: [{ type: 'url' as const, title: 'See more', url: 'https://shop.example.com/hat' }] },
];
const genericTemplate = {
  attachment: {
    type: 'template',
    payload: {
      template_type: 'generic',
      elements: [
        { title: 'Linen shirt', subtitle: 'Sand, all sizes', image_url: 'https://shop.example.com/shirt.png', buttons: [{ type: 'postback', title: 'Buy', payload: 'BUY_118' }] },
        { title: 'Straw hat', buttons: [{ type: 'web_url', title: 'See more', url: 'https://shop.example.com/hat' }] },
      ],
    },
  },
};

const bodies: Array<{ name: string; envelope: StdOutgoingMessageEnvelope; message: unknown }> = [
  { name: 'a text message', envelope: { type: 'text', data: { text: 'We deliver every day.' } }, message: { text: 'We deliver every day.' } },
  {
    name: 'quick replies, a title over 20 characters shortened with an ellipsis',
    envelope: { type: 'quickReply', data: { text: 'Pick a colour', quickReplies: [{ title: 'Red', payload: 'COLOR_RED' }, { title: 'Something else entirely', payload: 'COLOR_OTHER' }] } },
    message: {
      text: 'Pick a colour',
      quick_replies: [
        { content_type: 'text', title: 'Red', payload: 'COLOR_RED' },
        { content_type: 'text', title: 'Something else enti…', payload: 'COLOR_OTHER' },
      ],
    },
  },
  {
    name: 'buttons as a button template, postback and web_url',
    envelope: { type: 'buttons', data: { text: 'What next?', buttons: [{ type: 'postback', title: 'Start', payload: 'START' }, { type: 'url', title: 'Docs', url: 'https://example.com/docs' }] } },
    message: {
      attachment: {
        type: 'template',
        payload: { template_type: 'button', text: 'What next?', buttons: [{ type: 'postback', title: 'Start', payload: 'START' }, { type: 'web_url', title: 'Docs', url: 'https://example.com/docs' }] },
      },
    },
  },
  {
    name: 'an attachment by URL, reusable',
    envelope: { type: 'attachment', data: { attachment: { kind: 'file', url: 'https://host.test/download/invoice.pdf', name: 'invoice.pdf', mimeType: 'application/pdf' } } },
    message: { attachment: { type: 'file', payload: { url: 'https://host.test/download/invoice.pdf', is_reusable: true } } },
  },
  { name: 'a carousel as a generic template', envelope: { type: 'carousel', data: { elements: cards } }, message: genericTemplate },
  { name: 'a list as a generic template too (Meta retired the list template)', envelope: { type: 'list', data: { elements: cards } }, message: genericTemplate },
];

for (const { name, envelope, message } of bodies) {
  test(`sends ${name} to /v21.0/me/messages with the Page token, and returns the message_id`, async () => {
    const { scope, received } = graphAnswers('POST', '/v21.0/me/messages', 200, SENT);
    assert.deepEqual(await send(envelope), { mid: SENT.message_id });
    assert.ok(scope.isDone());
    assert.deepEqual(JSON.parse(received[0]!.body), { recipient: { id: ADA }, messaging_type: 'RESPONSE', message });
    assert.equal(received[0]!.headers.get('authorization'), `Bearer ${PAGE_TOKEN}`);
    assert.equal(received[0]!.headers.get('content-type'), 'application/json');
    assert.equal(received[0]!.path, '/v21.0/me/messages', 'no token in the URL');
  });
}

test('an attachment with text sends the text first, then the file, and returns the file message id', async () => {
  const { scope, received } = graphAnswers('POST', '/v21.0/me/messages', 200, SENT, { times: 2 });
  const envelope: StdOutgoingMessageEnvelope = { type: 'attachment', data: { text: 'Your invoice', attachment: { kind: 'image', url: 'https://host.test/download/cat.png' } } };
  assert.deepEqual(await send(envelope), { mid: SENT.message_id });
  assert.ok(scope.isDone());
  assert.deepEqual(
    received.map((request) => JSON.parse(request.body).message),
    [{ text: 'Your invoice' }, { attachment: { type: 'image', payload: { url: 'https://host.test/download/cat.png', is_reusable: true } } }],
  );
});

test('sends to the api_base_url and api_version of the source, ignoring a trailing slash', async () => {
  const { scope } = graphAnswers('POST', '/v19.0/me/messages', 200, SENT, { origin: 'http://graph.test:8080' });
  const settings = { ...SEND_SETTINGS, api_base_url: 'http://graph.test:8080/', api_version: 'v19.0' };
  assert.deepEqual(await send({ type: 'text', data: { text: 'x' } }, settings), { mid: SENT.message_id });
  assert.ok(scope.isDone());
});

const tooMany: Array<[string, StdOutgoingMessageEnvelope]> = [
  ['14 quick replies', { type: 'quickReply', data: { text: 'Pick', quickReplies: Array.from({ length: 14 }, (_, i) => ({ title: `Q${i}`, payload: `Q${i}` })) } }],
  ['4 buttons', { type: 'buttons', data: { text: 'Pick', buttons: Array.from({ length: 4 }, (_, i) => ({ type: 'postback' as const, title: `B${i}`, payload: `B${i}` })) } }],
  ['11 carousel elements', { type: 'carousel', data: { elements: Array.from({ length: 11 }, (_, i) => ({ title: `E${i}` })) } }],
  ['an element with 4 buttons', { type: 'list', data: { elements: [{ title: 'E', buttons: Array.from({ length: 4 }, (_, i) => ({ type: 'postback' as const, title: `B${i}`, payload: `B${i}` })) }] } }],
];
for (const [name, envelope] of tooMany) {
  test(`refuses ${name} (past the Send API's count limit) without calling the platform`, async () => {
    const { scope } = graphAnswers('POST', '/v21.0/me/messages', 200, SENT);
    await assert.rejects(send(envelope), { code: 'MESSENGER_ERR_TOO_MANY_ITEMS' });
    assert.equal(scope.isDone(), false);
  });
}

test('shortens element titles and subtitles to 80 characters and button template text to 640', async () => {
  const { received } = graphAnswers('POST', '/v21.0/me/messages', 200, SENT, { times: 2 });
  await send({ type: 'carousel', data: { elements: [{ title: 't'.repeat(81), subtitle: 's'.repeat(100) }] } });
  await send({ type: 'buttons', data: { text: 'x'.repeat(700), buttons: [{ type: 'postback', title: 'A', payload: 'A' }] } });
  const [element] = JSON.parse(received[0]!.body).message.attachment.payload.elements;
  assert.deepEqual(element, { title: `${'t'.repeat(79)}…`, subtitle: `${'s'.repeat(79)}…` });
  assert.equal(JSON.parse(received[1]!.body).message.attachment.payload.text, `${'x'.repeat(639)}…`);
});

const rateLimit = (code: number) => ({ error: { message: `(#${code}) Calls to this api have exceeded the rate limit.`, type: 'OAuthException', code, fbtrace_id: 'AmQ3Xc1bV9zKp2' } });
const waits: Array<{ name: string; status: number; body: unknown; headers?: Record<string, string>; expected: number | undefined }> = [
  { name: 'a 429 with Retry-After: 7', status: 429, body: rateLimit(613), headers: { 'retry-after': '7' }, expected: 7_000 },
  { name: 'a 429 without Retry-After', status: 429, body: '', expected: 60_000 },
  { name: 'a 400 with Graph error code 613 (Send API limit)', status: 400, body: rateLimit(613), expected: 60_000 },
  { name: 'a 403 with Graph error code 4 (app call limit)', status: 403, body: rateLimit(4), expected: 60_000 },
  { name: 'a 400 with code 613 and Retry-After: 2', status: 400, body: rateLimit(613), headers: { 'retry-after': '2' }, expected: 2_000 },
  { name: 'a 400 with another Graph error (code 100)', status: 400, body: { error: { message: '(#100) No matching user found', type: 'OAuthException', code: 100, error_subcode: 2018001 } }, expected: undefined },
  { name: 'a 500', status: 500, body: { error: { message: 'An unexpected error has occurred.', code: 2, is_transient: true } }, expected: undefined },
  { name: 'a 503 with Retry-After: 3', status: 503, body: '', headers: { 'retry-after': '3' }, expected: 3_000 },
];
for (const { name, status, body, headers, expected } of waits) {
  test(`${name} fails with PlatformResponseError HTTP ${status}, retryAfterMs ${expected}`, async () => {
    graphAnswers('POST', '/v21.0/me/messages', status, body, headers ? { headers } : {});
    await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), (error: Error & { code?: string; status?: number; retryAfterMs?: number }) => {
      assert.equal(error.name, 'PlatformResponseError');
      assert.equal(error.code, 'BOT_ERR_CHANNEL_PLATFORM_STATUS');
      assert.equal(error.status, status);
      assert.equal(error.retryAfterMs, expected);
      assert.doesNotMatch(error.message, new RegExp(PAGE_TOKEN));
      return true;
    });
  });
}

test('fails with MESSENGER_ERR_NO_MESSAGE_ID when the Send API answers 200 without a message_id', async () => {
  graphAnswers('POST', '/v21.0/me/messages', 200, { recipient_id: ADA });
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), { code: 'MESSENGER_ERR_NO_MESSAGE_ID' });
});

test('fails with MESSENGER_ERR_NO_PAGE_TOKEN, calling nothing, when the source has no Page access token', async () => {
  const { scope } = graphAnswers('POST', '/v21.0/me/messages', 200, SENT);
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }, { page_id: '' }), { code: 'MESSENGER_ERR_NO_PAGE_TOKEN' });
  assert.equal(scope.isDone(), false);
});

test('fails with MESSENGER_ERR_UNREACHABLE when the Graph API cannot be reached, keeping the cause', async () => {
  nock('https://graph.facebook.com').post('/v21.0/me/messages').replyWithError('connect ECONNREFUSED');
  await assert.rejects(send({ type: 'text', data: { text: 'Hello' } }), (error: Error & { code?: string; cause?: unknown }) => {
    assert.equal(error.code, 'MESSENGER_ERR_UNREACHABLE');
    assert.match(error.message, /https:\/\/graph\.facebook\.com could not be reached/);
    assert.ok(error.cause);
    return true;
  });
});

test('fails with MESSENGER_ERR_NO_SENDER for an event without a PSID', async () => {
  const event = storedEvent('text.json');
  (event.context as { senderForeignId?: string }).senderForeignId = undefined;
  await assert.rejects(createChannel().doSendMessage(event, { type: 'text', data: { text: 'Hello' } }, options), { code: 'MESSENGER_ERR_NO_SENDER' });
});
