import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, createSource, getRequest, newResponse, readManifest, manifestSettings } from './whatsapp-fixtures.ts';

const channel = createChannel();
const source = createSource({ verify_token: 'verify-1' });

test("answers Meta's verification request with the challenge as plain text", () => {
  const res = newResponse();
  channel.verifyWebhook(getRequest({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-1', 'hub.challenge': '1158201444' }), res, source);
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '1158201444');
  assert.match(res.headers['content-type'] ?? '', /^text\/plain/);
});

const refused: Array<{ name: string; query: Record<string, string | undefined>; settings?: Record<string, unknown> }> = [
  { name: 'the verify token is wrong', query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-2' } },
  { name: 'the verify token differs only in length', query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-12' } },
  { name: 'the verify token is missing', query: { 'hub.mode': 'subscribe' } },
  { name: 'the mode is not subscribe', query: { 'hub.mode': 'unsubscribe', 'hub.verify_token': 'verify-1' } },
  { name: 'the mode is missing', query: { 'hub.verify_token': 'verify-1' } },
  { name: 'the token is sent without the hub. prefix', query: { mode: 'subscribe', verify_token: 'verify-1' } },
  { name: 'the source has no verify token, even to an empty one', query: { 'hub.mode': 'subscribe', 'hub.verify_token': '' }, settings: {} },
];

for (const { name, query, settings } of refused) {
  test(`answers 403 without the challenge when ${name}`, () => {
    const res = newResponse();
    channel.verifyWebhook(getRequest({ ...query, 'hub.challenge': '1158201444' }), res, settings ? createSource(settings) : source);
    assert.equal(res.statusCode, 403);
    assert.doesNotMatch(res.body ?? '', /1158201444/);
  });
}

test("the author kit's handshake in channel-check.json is accepted and refused as it expects", () => {
  const { handshake } = readManifest();
  const settings = manifestSettings();
  assert.ok(handshake);
  const accepted = newResponse();
  channel.verifyWebhook(getRequest(handshake.accept.query), accepted, createSource(settings));
  assert.equal(accepted.statusCode, handshake.accept.expect.status);
  assert.ok(accepted.body?.includes(handshake.accept.expect.bodyIncludes ?? ''));
  const refusedResponse = newResponse();
  channel.verifyWebhook(getRequest(handshake.refuse.query), refusedResponse, createSource(settings));
  assert.equal(refusedResponse.statusCode, handshake.refuse.expect.status);
});
