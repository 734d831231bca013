import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebhookRequest } from '@bot-ai/api';
import { signMessengerBody } from 'bot-channel-messenger';
import { APP_SECRET, createChannel, createSource, newResponse, postRequest, sign } from './messenger-test-kit.ts';

const channel = createChannel();
const body = { object: 'page', entry: [] };
const rawBody = Buffer.from(JSON.stringify(body));
const source = createSource({ app_secret: APP_SECRET });

test('accepts a POST whose X-Hub-Signature-256 is the HMAC-SHA256 of the raw body under the app secret', () => {
  assert.doesNotThrow(() => channel.verifySignature(postRequest(body), newResponse(), source));
});

test('signMessengerBody gives the header value of a known vector (computed with openssl dgst -sha256 -hmac)', () => {
  // printf '%s' '{"object":"page","entry":[]}' | openssl dgst -sha256 -hmac 'app-secret-test'
  assert.equal(signMessengerBody(rawBody, APP_SECRET), 'sha256=f99b2dd456cd4b1da80a1aae09559c62345b502a902b4572232aa489a8a8318a');
  assert.equal(signMessengerBody(rawBody, APP_SECRET), sign(rawBody, APP_SECRET));
});

test('accepts upper-case hex, as hex digests are case-free', () => {
  const request = postRequest(body, { signature: `sha256=${sign(rawBody, APP_SECRET).slice(7).toUpperCase()}` });
  assert.doesNotThrow(() => channel.verifySignature(request, newResponse(), source));
});

test('checks the exact bytes received, not a re-serialised body (Meta escapes non-ASCII as \\u sequences)', () => {
  const bytes = Buffer.from('{"object":"page","entry":[],"note":"caf\\u00e9"}');
  const request: WebhookRequest = { ...postRequest(body), body: JSON.parse(bytes.toString()), rawBody: bytes, headers: { 'x-hub-signature-256': sign(bytes, APP_SECRET) } };
  assert.doesNotThrow(() => channel.verifySignature(request, newResponse(), source));
});

const digest = sign(rawBody, APP_SECRET).slice('sha256='.length);
const rejections: Array<{ name: string; request: () => WebhookRequest; settings?: Record<string, unknown> }> = [
  { name: 'signed with another secret', request: () => postRequest(body, { secret: 'another-secret' }) },
  { name: 'without the signature header', request: () => postRequest(body, { signature: null }) },
  { name: 'with an empty signature header', request: () => postRequest(body, { signature: '' }) },
  { name: 'with the digest but not the sha256= prefix', request: () => postRequest(body, { signature: digest }) },
  { name: "with the legacy X-Hub-Signature's sha1= prefix", request: () => postRequest(body, { signature: `sha1=${digest}` }) },
  { name: 'with a truncated digest', request: () => postRequest(body, { signature: `sha256=${digest.slice(0, 40)}` }) },
  { name: 'with a digest that is not hex', request: () => postRequest(body, { signature: `sha256=${'z'.repeat(64)}` }) },
  { name: 'whose body was changed after signing', request: () => ({ ...postRequest(body), rawBody: Buffer.from(JSON.stringify({ ...body, entry: [{ id: '1' }] })) }) },
  { name: 'with one more byte of whitespace after signing', request: () => ({ ...postRequest(body), rawBody: Buffer.concat([rawBody, Buffer.from(' ')]) }) },
  { name: 'without a raw body', request: () => ({ ...postRequest(body), rawBody: new Uint8Array() }) },
  { name: 'to a source without an app secret', request: () => postRequest(body), settings: {} },
  { name: 'signed with an empty secret to a source whose secret is empty', request: () => postRequest(body, { secret: '' }), settings: { app_secret: '' } },
];

for (const { name, request, settings = { app_secret: APP_SECRET } } of rejections) {
  test(`rejects a POST ${name} with SignatureRejectedError`, () => {
    assert.throws(() => channel.verifySignature(request(), newResponse(), createSource(settings)), {
      name: 'SignatureRejectedError',
      code: 'BOT_ERR_CHANNEL_SIGNATURE_REJECTED',
    });
  });
}
