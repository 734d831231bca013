import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebhookRequest } from '@bot-ai/api';
import { signSlackRequest } from 'bot-channel-slack';
import { createChannel, createSource, jsonRequest, newResponse, NOW_SECONDS, SIGNING_SECRET, slackRequest } from './slack-fixtures.ts';

// api.slack.com/authentication/verifying-requests-from-slack: the published example.
const EXAMPLE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

function exampleRequest(): WebhookRequest {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': EXAMPLE.timestamp, 'x-slack-signature': EXAMPLE.signature },
    query: {},
    params: {},
    body: undefined,
    rawBody: Buffer.from(EXAMPLE.body),
  };
}

test("signSlackRequest gives Slack's published example signature", () => {
  assert.equal(signSlackRequest(Buffer.from(EXAMPLE.body), EXAMPLE.timestamp, EXAMPLE.secret), EXAMPLE.signature);
  assert.equal(signSlackRequest(EXAMPLE.body, Number(EXAMPLE.timestamp), EXAMPLE.secret), EXAMPLE.signature);
});

test("accepts Slack's published example request at its own time", () => {
  const channel = createChannel();
  channel.now = () => Number(EXAMPLE.timestamp) * 1000 + 30_000;
  assert.doesNotThrow(() => channel.verifySignature(exampleRequest(), newResponse(), createSource({ signing_secret: EXAMPLE.secret })));
});

test("refuses Slack's published example today: its timestamp is years old", () => {
  const channel = createChannel();
  channel.now = Date.now;
  assert.throws(() => channel.verifySignature(exampleRequest(), newResponse(), createSource({ signing_secret: EXAMPLE.secret })), {
    name: 'SignatureRejectedError',
    message: /more than five minutes/,
  });
});

const body = { type: 'event_callback', event_id: 'Ev0MDYHUEL', event: { type: 'message' } };
const rawBody = JSON.stringify(body);

test('accepts a request signed with the signing secret, an upper-case digest too, and one 299 s either side of now', () => {
  const channel = createChannel();
  const source = createSource({ signing_secret: SIGNING_SECRET });
  assert.doesNotThrow(() => channel.verifySignature(jsonRequest(body), newResponse(), source));
  const upper = jsonRequest(body);
  upper.headers['x-slack-signature'] = `v0=${upper.headers['x-slack-signature']!.slice(3).toUpperCase()}`;
  assert.doesNotThrow(() => channel.verifySignature(upper, newResponse(), source));
  assert.doesNotThrow(() => channel.verifySignature(jsonRequest(body, { timestamp: NOW_SECONDS - 299 }), newResponse(), source));
  assert.doesNotThrow(() => channel.verifySignature(jsonRequest(body, { timestamp: NOW_SECONDS + 299 }), newResponse(), source));
});

const rejections: Array<{ name: string; request: () => WebhookRequest; settings?: Record<string, unknown> }> = [
  { name: 'signed with another secret', request: () => jsonRequest(body, { secret: 'another-secret' }) },
  { name: 'without the signature header', request: () => jsonRequest(body, { signature: null }) },
  { name: 'with an empty signature', request: () => jsonRequest(body, { signature: '' }) },
  { name: 'without the timestamp header', request: () => ({ ...jsonRequest(body), headers: { 'x-slack-signature': jsonRequest(body).headers['x-slack-signature'] } }) },
  { name: 'with a timestamp that is not a number', request: () => jsonRequest(body, { timestamp: '17e8' }) },
  { name: 'with a timestamp 301 s old (a replay)', request: () => jsonRequest(body, { timestamp: NOW_SECONDS - 301 }) },
  { name: 'with a timestamp 301 s ahead', request: () => jsonRequest(body, { timestamp: NOW_SECONDS + 301 }) },
  {
    name: 'whose timestamp header was changed after signing',
    request: () => ({ ...jsonRequest(body), headers: { ...jsonRequest(body).headers, 'x-slack-request-timestamp': String(NOW_SECONDS + 1) } }),
  },
  { name: 'with another version prefix', request: () => jsonRequest(body, { signature: `v1=${signSlackRequest(rawBody, NOW_SECONDS, SIGNING_SECRET).slice(3)}` }) },
  { name: 'with a bare digest, no prefix', request: () => jsonRequest(body, { signature: signSlackRequest(rawBody, NOW_SECONDS, SIGNING_SECRET).slice(3) }) },
  { name: 'with a digest that is not hex', request: () => jsonRequest(body, { signature: `v0=${'z'.repeat(64)}` }) },
  { name: 'with a shortened digest', request: () => jsonRequest(body, { signature: signSlackRequest(rawBody, NOW_SECONDS, SIGNING_SECRET).slice(0, 40) }) },
  { name: 'whose body was changed after signing', request: () => ({ ...jsonRequest(body), rawBody: Buffer.from(`${rawBody} `) }) },
  { name: 'without a body', request: () => ({ ...slackRequest(''), rawBody: new Uint8Array() }) },
  { name: 'to a source without a signing secret', request: () => jsonRequest(body), settings: {} },
  { name: 'signed with an empty secret to a source whose secret is empty', request: () => jsonRequest(body, { secret: '' }), settings: { signing_secret: '' } },
];

for (const { name, request, settings = { signing_secret: SIGNING_SECRET } } of rejections) {
  test(`rejects a request ${name} with SignatureRejectedError`, () => {
    assert.throws(() => createChannel().verifySignature(request(), newResponse(), createSource(settings)), {
      name: 'SignatureRejectedError',
      code: 'BOT_ERR_CHANNEL_SIGNATURE_REJECTED',
    });
  });
}

const handshake = { token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' };

test('answers a signed url_verification with 200 and its challenge as JSON, and decodes it to no event', () => {
  const channel = createChannel();
  const res = newResponse();
  const request = jsonRequest(handshake);
  channel.verifySignature(request, res, createSource());
  assert.equal(res.statusCode, 200);
  assert.deepEqual(JSON.parse(res.body!), { challenge: handshake.challenge });
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.deepEqual(channel.decode(request, createSource()), []);
});

test('does not answer a url_verification whose signature fails: the challenge is not given away', () => {
  const res = newResponse();
  assert.throws(() => createChannel().verifySignature(jsonRequest(handshake, { secret: 'not-it' }), res, createSource()), { name: 'SignatureRejectedError' });
  assert.equal(res.statusCode, undefined);
  assert.equal(res.body, undefined);
});

test('writes no answer for a signed request that is not a url_verification (the host answers 200)', () => {
  const res = newResponse();
  createChannel().verifySignature(jsonRequest(body), res, createSource());
  assert.equal(res.statusCode, undefined);
  assert.equal(res.body, undefined);
});
