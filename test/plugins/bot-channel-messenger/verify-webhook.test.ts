import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, createSource, getRequest, newResponse } from './messenger-test-kit.ts';

const channel = createChannel();
const TOKEN = 'verify-4c1e9b2a';

test("answers Meta's callback check with the challenge as plain text when the verify token matches", () => {
  const res = newResponse();
  channel.verifyWebhook(getRequest({ 'hub.mode': 'subscribe', 'hub.verify_token': TOKEN, 'hub.challenge': '1158201444' }), res, createSource({ verify_token: TOKEN }));
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '1158201444');
  assert.match(res.headers['content-type'] ?? '', /^text\/plain/);
});

const refusals: Array<{ name: string; query: Record<string, string | undefined>; configured?: string }> = [
  { name: 'a wrong verify token', query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-4c1e9b2b' } },
  { name: 'a verify token that only starts like the right one', query: { 'hub.mode': 'subscribe', 'hub.verify_token': `${TOKEN}x` } },
  { name: 'no verify token', query: { 'hub.mode': 'subscribe' } },
  { name: 'a mode other than subscribe', query: { 'hub.mode': 'unsubscribe', 'hub.verify_token': TOKEN } },
  { name: 'no mode', query: { 'hub.verify_token': TOKEN } },
  { name: 'the token under an unprefixed name', query: { mode: 'subscribe', verify_token: TOKEN } },
  { name: 'an empty token to a source without one', query: { 'hub.mode': 'subscribe', 'hub.verify_token': '' }, configured: '' },
];

for (const { name, query, configured = TOKEN } of refusals) {
  test(`answers 403 without the challenge to ${name}`, () => {
    const res = newResponse();
    channel.verifyWebhook(getRequest({ ...query, 'hub.challenge': '1158201444' }), res, createSource({ verify_token: configured }));
    assert.equal(res.statusCode, 403);
    assert.notEqual(res.body, '1158201444');
  });
}
