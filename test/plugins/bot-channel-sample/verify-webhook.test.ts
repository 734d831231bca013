import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, createSource, getRequest, newResponse } from './sample-fixtures.ts';

const channel = createChannel();

const accepted = [
  { name: 'echoes the challenge when the verify token matches', challenge: 'abc123', body: 'abc123' },
  { name: 'answers ok when the token matches and there is no challenge', challenge: undefined, body: 'ok' },
];

for (const { name, challenge, body } of accepted) {
  test(name, () => {
    const res = newResponse();
    channel.verifyWebhook(getRequest({ verify_token: 'tok-1', challenge }), res, createSource({ verify_token: 'tok-1' }));
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, body);
    assert.match(res.headers['content-type'] ?? '', /^text\/plain/);
  });
}

const rejected = [
  { name: 'answers 403 when the verify token is wrong', given: 'tok-2', configured: 'tok-1' },
  { name: 'answers 403 when the verify token is missing', given: undefined, configured: 'tok-1' },
  { name: 'answers 403 when the verify token differs only in length', given: 'tok-1x', configured: 'tok-1' },
  { name: 'answers 403 when the source has no verify token, even to an empty one', given: '', configured: '' },
  { name: 'answers 403 when the setting is absent', given: '', configured: undefined },
];

for (const { name, given, configured } of rejected) {
  test(name, () => {
    const res = newResponse();
    const settings = configured === undefined ? {} : { verify_token: configured };
    channel.verifyWebhook(getRequest({ verify_token: given, challenge: 'abc123' }), res, createSource(settings));
    assert.equal(res.statusCode, 403);
    assert.notEqual(res.body, 'abc123');
  });
}
