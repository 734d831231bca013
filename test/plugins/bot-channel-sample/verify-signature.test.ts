import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebhookRequest } from '@bot-ai/api';
import { createChannel, createSource, newResponse, postRequest, SECRET, sign } from './sample-fixtures.ts';

const channel = createChannel();
const body = { events: [] };
const rawBody = Buffer.from(JSON.stringify(body));

test('accepts a POST signed with the webhook secret', () => {
  assert.doesNotThrow(() => channel.verifySignature(postRequest(body), newResponse(), createSource({ webhook_secret: SECRET })));
});

test('accepts an upper-case hex signature', () => {
  const request = postRequest(body);
  request.headers['x-bot-signature'] = request.headers['x-bot-signature']!.toUpperCase();
  assert.doesNotThrow(() => channel.verifySignature(request, newResponse(), createSource({ webhook_secret: SECRET })));
});

const rejections: Array<{ name: string; request: () => WebhookRequest; settings?: Record<string, unknown> }> = [
  { name: 'signed with another secret', request: () => postRequest(body, { secret: 'other-secret' }) },
  { name: 'without the signature header', request: () => postRequest(body, { signature: null }) },
  { name: 'with an empty signature header', request: () => postRequest(body, { signature: '' }) },
  { name: 'with a digest of a different length', request: () => postRequest(body, { signature: sign(rawBody, SECRET).slice(0, 40) }) },
  { name: 'with a signature that is not hex', request: () => postRequest(body, { signature: 'z'.repeat(64) }) },
  {
    name: 'whose body was changed after signing',
    request: () => ({ ...postRequest(body), rawBody: Buffer.from(JSON.stringify({ events: [{ id: 'x' }] })) }),
  },
  { name: 'without a raw body', request: () => ({ ...postRequest(body), rawBody: new Uint8Array() }) },
  { name: 'with an undefined raw body', request: () => ({ ...postRequest(body), rawBody: undefined as unknown as Uint8Array }) },
  { name: 'to a source without a webhook secret', request: () => postRequest(body), settings: {} },
  {
    name: 'signed with an empty secret to a source without one',
    request: () => postRequest(body, { secret: '' }),
    settings: { webhook_secret: '' },
  },
];

for (const { name, request, settings = { webhook_secret: SECRET } } of rejections) {
  test(`rejects a POST ${name} with SignatureRejectedError`, () => {
    assert.throws(() => channel.verifySignature(request(), newResponse(), createSource(settings)), {
      name: 'SignatureRejectedError',
      code: 'BOT_ERR_CHANNEL_SIGNATURE_REJECTED',
    });
  });
}
