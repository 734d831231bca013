import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebhookRequest } from '@bot-ai/api';
import { createChannel, createSource, deliveryBody, newResponse, postRequest, SECRET_TOKEN, SETTINGS } from './telegram-fixtures.ts';

const channel = createChannel();
const body = deliveryBody('text-message.json');

test('accepts an update whose X-Telegram-Bot-Api-Secret-Token is the source secret token', () => {
  assert.doesNotThrow(() => channel.verifySignature(postRequest(body), newResponse(), createSource()));
});

test('accepts a secret token of the longest length setWebhook allows', () => {
  const secret = 'Z'.repeat(256);
  assert.doesNotThrow(() => channel.verifySignature(postRequest(body, secret), newResponse(), createSource({ ...SETTINGS, secret_token: secret })));
});

const rejections: Array<{ name: string; request: () => WebhookRequest; settings?: Record<string, unknown> }> = [
  { name: 'with another secret token', request: () => postRequest(body, 'another-secret') },
  { name: 'without the header', request: () => postRequest(body, null) },
  { name: 'with an empty header', request: () => postRequest(body, '') },
  { name: 'with the token in another case', request: () => postRequest(body, SECRET_TOKEN.toUpperCase()) },
  { name: 'with the token and one character more', request: () => postRequest(body, `${SECRET_TOKEN}x`) },
  { name: 'with a prefix of the token', request: () => postRequest(body, SECRET_TOKEN.slice(0, -1)) },
  { name: 'to a source without a secret token', request: () => postRequest(body), settings: { bot_token: SETTINGS.bot_token } },
  { name: 'with an empty header to a source whose secret token is empty', request: () => postRequest(body, ''), settings: { ...SETTINGS, secret_token: '' } },
  { name: 'to a source with no settings at all', request: () => postRequest(body), settings: {} },
];

for (const { name, request, settings = SETTINGS } of rejections) {
  test(`rejects an update ${name} with SignatureRejectedError`, () => {
    assert.throws(() => channel.verifySignature(request(), newResponse(), createSource(settings)), {
      name: 'SignatureRejectedError',
      code: 'BOT_ERR_CHANNEL_SIGNATURE_REJECTED',
    });
  });
}

test('Telegram has no GET handshake: a GET is answered 405 with Allow: POST, whatever its query', () => {
  const res = newResponse();
  const get: WebhookRequest = { method: 'GET', headers: {}, query: { hub_challenge: 'abc', 'hub.verify_token': SECRET_TOKEN }, params: {}, body: undefined, rawBody: new Uint8Array() };
  channel.verifyWebhook(get, res, createSource());
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers.allow, 'POST');
  assert.doesNotMatch(String(res.body), /abc/);
});
