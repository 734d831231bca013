import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import type { WebhookRequest } from '@bot-ai/api';
import { checkWhatsAppSignature, signWhatsAppBody } from 'bot-channel-whatsapp';
import { APP_SECRET, createChannel, createSource, newResponse, postRequest, readDelivery, readManifest, manifestSettings } from './whatsapp-fixtures.ts';

const channel = createChannel();
const body = readDelivery('text.json').request.body;
const rawBody = Buffer.from(JSON.stringify(body));
const hexDigest = createHmac('sha256', APP_SECRET).update(rawBody).digest('hex');

test('accepts a POST whose X-Hub-Signature-256 is sha256= and the HMAC of the raw body under the app secret', () => {
  assert.doesNotThrow(() => channel.verifySignature(postRequest(body), newResponse(), createSource()));
  assert.equal(signWhatsAppBody(rawBody, APP_SECRET), `sha256=${hexDigest}`);
});

test('accepts an upper-case hex digest', () => {
  const request = postRequest(body, { signature: `sha256=${hexDigest.toUpperCase()}` });
  assert.doesNotThrow(() => channel.verifySignature(request, newResponse(), createSource()));
});

// The X-Hub-Signature-256 scheme's published example (GitHub documents the same header and
// format: "sha256=" + hex HMAC-SHA256 of the body): secret "It's a Secret to Everybody", body "Hello, World!".
test("accepts the scheme's published example and refuses it under another secret", () => {
  const published = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
  const example = Buffer.from('Hello, World!');
  assert.equal(signWhatsAppBody(example, "It's a Secret to Everybody"), published);
  assert.doesNotThrow(() => checkWhatsAppSignature(published, example, "It's a Secret to Everybody"));
  assert.throws(() => checkWhatsAppSignature(published, example, 'another secret'), { name: 'SignatureRejectedError' });
});

test('signs over the exact bytes: the same JSON with other spacing is refused', () => {
  const request = { ...postRequest(body), rawBody: Buffer.from(JSON.stringify(body, null, 2)) };
  assert.throws(() => channel.verifySignature(request, newResponse(), createSource()), { name: 'SignatureRejectedError' });
});

const rejections: Array<{ name: string; request: () => WebhookRequest; settings?: Record<string, unknown> }> = [
  { name: 'signed with another secret', request: () => postRequest(body, { secret: 'other-secret' }) },
  { name: 'without the signature header', request: () => postRequest(body, { signature: null }) },
  { name: 'with an empty signature header', request: () => postRequest(body, { signature: '' }) },
  { name: 'with the digest but no sha256= prefix', request: () => postRequest(body, { signature: hexDigest }) },
  { name: 'with a sha1= signature (the old X-Hub-Signature format)', request: () => postRequest(body, { signature: `sha1=${hexDigest.slice(0, 40)}` }) },
  { name: 'with a truncated digest', request: () => postRequest(body, { signature: `sha256=${hexDigest.slice(0, 62)}` }) },
  { name: 'with a digest that is not hex', request: () => postRequest(body, { signature: `sha256=${'z'.repeat(64)}` }) },
  { name: 'whose body was changed after signing', request: () => ({ ...postRequest(body), rawBody: Buffer.from(JSON.stringify({ ...(body as object), object: 'x' })) }) },
  { name: 'without a raw body', request: () => ({ ...postRequest(body), rawBody: new Uint8Array() }) },
  { name: 'with an undefined raw body', request: () => ({ ...postRequest(body), rawBody: undefined as unknown as Uint8Array }) },
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

test("channel-check.json describes this scheme for the author kit, keyed by the app_secret setting", () => {
  const { signature } = readManifest();
  const settings = manifestSettings();
  assert.deepEqual(signature, { scheme: 'hmac-sha256', header: 'x-hub-signature-256', prefix: 'sha256=', setting: 'app_secret', signedContent: '{body}' });
  const secret = String(settings.app_secret);
  const signed = postRequest(body, { signature: `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}` });
  assert.doesNotThrow(() => channel.verifySignature(signed, newResponse(), createSource(settings)));
});
