/** The SDK's helpers for real platforms: callPlatform, SendPacer, constantTimeEqual. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { callPlatform, checkHmacSha256, constantTimeEqual, directFetchService, hmacSha256Hex, installHostServices, SendPacer } from '@bot-ai/api';

describe('callPlatform', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":{"message_id":7}}');
      if (req.url === '/limited') return void res.writeHead(429, { 'retry-after': '4' }).end('{"ok":false}');
      if (req.url === '/limited-in-body') return void res.writeHead(429).end('{"ok":false,"parameters":{"retry_after":9}}');
      if (req.url?.startsWith('/slow')) return; // never answers
      res.writeHead(503).end('down for maintenance');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    installHostServices({ getAttachmentPublicUrl: async () => '', fetch: directFetchService });
  });
  after(() => {
    installHostServices(undefined);
    server.closeAllConnections();
    server.close();
  });
  const options = { timeoutMs: 2_000, unreachableCode: 'TEST_ERR_UNREACHABLE' };

  test('answers the JSON of a 2xx answer', async () => {
    assert.deepEqual(await callPlatform(`${base}/ok`, { method: 'POST' }, options), { ok: true, result: { message_id: 7 } });
  });

  test('a 429 carries the Retry-After header as retryAfterMs, or what the channel reads from the body', async () => {
    await assert.rejects(callPlatform(`${base}/limited`, {}, options), { code: 'BOT_ERR_CHANNEL_PLATFORM_STATUS', status: 429, retryAfterMs: 4_000 });
    const fromBody = { ...options, retryAfterMs: (_response: Response, body: unknown) => (body as { parameters?: { retry_after?: number } }).parameters!.retry_after! * 1000 };
    await assert.rejects(callPlatform(`${base}/limited-in-body`, {}, fromBody), { status: 429, retryAfterMs: 9_000 });
  });

  test('another failure names the status and the start of the body, with no delay', async () => {
    await assert.rejects(callPlatform(`${base}/down`, {}, options), (error: { status?: number; retryAfterMs?: number; message: string }) => {
      assert.deepEqual([error.status, error.retryAfterMs], [503, undefined]);
      assert.match(error.message, /HTTP 503: down for maintenance/);
      return true;
    });
  });

  test('no answer in time is the channel\'s unreachable code, naming the origin and never the path (it may hold a token)', async () => {
    await assert.rejects(callPlatform(`${base}/slow?token=secret`, {}, { ...options, timeoutMs: 200 }), (error: { code?: string; message: string }) => {
      assert.equal(error.code, 'TEST_ERR_UNREACHABLE');
      assert.match(error.message, new RegExp(`^The platform at ${base} did not answer within 200 ms$`));
      return true;
    });
  });
});

describe('SendPacer', () => {
  test('spaces the sends to one key by the interval, and leaves other keys alone', async () => {
    let now = 1_000;
    const slept: number[] = [];
    const pacer = new SendPacer(1_000, { now: () => now, sleep: async (ms) => void slept.push(ms) });
    await pacer.wait('chat-1');
    await pacer.wait('chat-2');
    await pacer.wait('chat-1');
    await pacer.wait('chat-1');
    assert.deepEqual(slept, [1_000, 2_000]);
    now += 5_000; // all intervals past: no wait, and the bookings are forgotten
    await pacer.wait('chat-1');
    assert.deepEqual(slept, [1_000, 2_000]);
  });
});

describe('constantTimeEqual', () => {
  test('matches equal strings only; an empty expected value or a missing one never matches', () => {
    assert.equal(constantTimeEqual('s3cret', 's3cret'), true);
    assert.equal(constantTimeEqual('s3cret', 's3cre'), false);
    assert.equal(constantTimeEqual('S3CRET', 's3cret'), false);
    assert.equal(constantTimeEqual('', ''), false);
    assert.equal(constantTimeEqual(undefined, 's3cret'), false);
  });
});

describe('checkHmacSha256', () => {
  // Slack's published example: signing secret, timestamp, body and the signature it documents.
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = Buffer.from('token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c');
  const parts = ['v0:1531420618:', body];
  const published = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';

  test('accepts the signature of the parts, its prefix and hex in any case', () => {
    assert.equal(`v0=${hmacSha256Hex(secret, parts)}`, published);
    checkHmacSha256(published, parts, secret, 'v0=');
    checkHmacSha256(` ${published.toUpperCase()} `, parts, secret, 'v0=');
  });

  test('refuses another secret, another body, another prefix, a short digest, none, and an empty secret', () => {
    const refused = { name: 'SignatureRejectedError', code: 'BOT_ERR_CHANNEL_SIGNATURE_REJECTED' };
    assert.throws(() => checkHmacSha256(published, parts, `${secret}x`, 'v0='), refused);
    assert.throws(() => checkHmacSha256(published, ['v0:1531420619:', body], secret, 'v0='), refused);
    assert.throws(() => checkHmacSha256(published.replace('v0=', 'v1='), parts, secret, 'v0='), refused);
    assert.throws(() => checkHmacSha256(published.slice(0, 40), parts, secret, 'v0='), refused);
    assert.throws(() => checkHmacSha256(undefined, parts, secret, 'v0='), refused);
    assert.throws(() => checkHmacSha256(`v0=${hmacSha256Hex('', parts)}`, parts, '', 'v0='), refused);
  });
});
