import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, test, type TestContext } from 'node:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import type { EgressRequest, EgressResponse } from '@bot-ai/api';
import { fetch } from 'undici';
import { rejectsWithCode, startClient, startListener, TEST_LIMITS, type ReceivedRequest } from './egress-fixtures.ts';

/**
 * Plugins were written against `fetch`: the host's egress sends through its connection pool
 * directly, and must look the same from both ends. Each case is sent once through `fetch` and
 * once through the egress client, to the same listener, and both sides are compared.
 */
const ALLOWANCE = (origin: string) => ({ hosts: [], origins: [origin] });

async function throughFetch(request: EgressRequest): Promise<EgressResponse> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body ?? null, redirect: 'manual' });
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, statusText: response.statusText, headers: [...response.headers], body, url: request.url, redirected: false };
}

/** What reached the listener, without what differs between any two connections. */
function sent(request: ReceivedRequest): Record<string, unknown> {
  const { host: _host, connection: _connection, ...headers } = request.headers;
  return { method: request.method, url: request.url, headers, body: request.body };
}

describe('the egress client sends what fetch sends', () => {
  const cases: [string, (origin: string) => EgressRequest][] = [
    ['a bare GET', (origin) => ({ url: `${origin}/a?b=1`, method: 'GET', headers: [] })],
    [
      'a POST with its own accept and user-agent',
      (origin) => ({ url: `${origin}/send`, method: 'POST', headers: [['content-type', 'application/json'], ['accept', 'application/json'], ['user-agent', 'bot/1']], body: new TextEncoder().encode('{"a":1}') }),
    ],
    ['a range request (the bytes as stored)', (origin) => ({ url: `${origin}/file`, method: 'GET', headers: [['range', 'bytes=0-9']] })],
    ['a request choosing its own encodings', (origin) => ({ url: `${origin}/x`, method: 'GET', headers: [['accept-encoding', 'gzip']] })],
  ];
  for (const [name, build] of cases) {
    test(name, async (t) => {
      const listener = await startListener(t, (_request, res) => res.end('ok'));
      const request = build(listener.origin);
      await throughFetch(request);
      await startClient(t).perform(request, ALLOWANCE(listener.origin));
      assert.equal(listener.received.length, 2);
      assert.deepEqual(sent(listener.received[1]!), sent(listener.received[0]!));
    });
  }
});

describe('the egress client answers what fetch answers', () => {
  const answers: [string, (res: ServerResponse) => void][] = [
    [
      'repeated headers, cookies and a reason phrase of its own',
      (res) => {
        res.statusMessage = 'Quite Fine';
        res.setHeader('set-cookie', ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT', 'b=2']);
        res.setHeader('x-Multi', ['one', 'two']);
        res.setHeader('content-type', 'text/plain');
        res.end('body');
      },
    ],
    ['an empty 204', (res) => res.writeHead(204).end()],
    ['a redirect, not followed', (res) => res.writeHead(302, { location: '/elsewhere' }).end('moved')],
  ];
  for (const [name, answer] of answers) {
    test(name, async (t) => {
      const listener = await startListener(t, (_request, res) => answer(res));
      await expectSameAnswer(t, { url: `${listener.origin}/`, method: 'GET', headers: [], redirect: 'manual' }, listener.origin);
    });
  }

  const plain = Buffer.from('{"ok":false}');
  const encoded: [string, string, Buffer][] = [
    ['a gzip body', 'gzip', gzipSync(plain)],
    ['a zlib deflate body', 'deflate', deflateSync(plain)],
    ['a raw deflate body (no zlib header)', 'deflate', deflateRawSync(plain)],
    ['a br body', 'br', brotliCompressSync(plain)],
    ['a zstd body', 'zstd', zstdCompressSync(plain)],
    ['gzip over br, undone in reverse', 'br, gzip', gzipSync(brotliCompressSync(plain))],
    ['an empty gzip body', 'gzip', Buffer.alloc(0)],
    ['a gzip body cut short', 'gzip', gzipSync(Buffer.from('x'.repeat(2_000))).subarray(0, 60)],
    ['a coding nobody knows, left as it came', 'compress', plain],
    ['a known coding over an unknown one, left as it came', 'compress, gzip', gzipSync(plain)],
    ['a deflate body with a trailing newline', 'deflate', Buffer.concat([deflateSync(plain), Buffer.from('\n')])],
    ['two deflate streams back to back', 'deflate', Buffer.concat([deflateSync(plain), deflateSync(plain)])],
    ['a raw deflate body with a byte after its end', 'deflate', Buffer.concat([deflateRawSync(plain), Buffer.from('x')])],
  ];
  for (const [name, encoding, bytes] of encoded) {
    test(`${name}, on an error answer too`, { timeout: 10_000 }, async (t) => {
      const listener = await startListener(t, (_request, res) => res.writeHead(500, { 'content-encoding': encoding, 'content-type': 'application/json' }).end(bytes));
      await expectSameAnswer(t, { url: `${listener.origin}/`, method: 'GET', headers: [] }, listener.origin);
    });
  }

  test('a HEAD or 304 answer has no body, whatever length it declares', async (t) => {
    const listener = await startListener(t, (request, res) => {
      const large = { 'content-length': String(TEST_LIMITS.maxResponseBytes * 100), etag: '"v1"' };
      if (request.method === 'HEAD') res.writeHead(200, large).end();
      else res.writeHead(304, large).end();
    });
    await expectSameAnswer(t, { url: `${listener.origin}/`, method: 'HEAD', headers: [] }, listener.origin);
    await expectSameAnswer(t, { url: `${listener.origin}/`, method: 'GET', headers: [['if-none-match', '"v1"']] }, listener.origin);
  });
});

async function expectSameAnswer(t: TestContext, request: EgressRequest, origin: string): Promise<void> {
  const expected = await throughFetch(request);
  const actual = await startClient(t).perform(request, ALLOWANCE(origin));
  const withoutDate = (answer: EgressResponse) => ({ ...answer, headers: answer.headers.filter(([header]) => header !== 'date') });
  assert.deepEqual(withoutDate(actual), withoutDate(expected));
}

describe('the egress client goes nowhere fetch would not', () => {
  test("a port fetch never sends HTTP to (SMTP's) is refused, before any connection", async (t) => {
    await rejectsWithCode(startClient(t).perform({ url: 'http://127.0.0.1:25/', method: 'POST', headers: [] }, ALLOWANCE('http://127.0.0.1:25')), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
  });

  test('a redirect to such a port is refused', async (t) => {
    const listener = await startListener(t, (_request, res) => res.writeHead(307, { location: 'http://127.0.0.1:25/' }).end());
    const allowance = { hosts: [], origins: [listener.origin, 'http://127.0.0.1:25'] };
    await rejectsWithCode(startClient(t).perform({ url: `${listener.origin}/`, method: 'GET', headers: [] }, allowance), 'BOT_ERR_EGRESS_REDIRECT_REFUSED');
  });

  test('an empty Location is followed back to the same URL, as fetch follows it, until the redirects run out', async (t) => {
    const listener = await startListener(t, (_request, res) => res.writeHead(302, { location: '' }).end());
    await rejectsWithCode(startClient(t).perform({ url: `${listener.origin}/`, method: 'GET', headers: [] }, ALLOWANCE(listener.origin)), 'BOT_ERR_EGRESS_TOO_MANY_REDIRECTS');
    assert.equal(listener.received.length, TEST_LIMITS.maxRedirects + 1);
  });

  test('a standard method in lower case is sent as fetch sends it, in upper case', async (t) => {
    const listener = await startListener(t, (_request, res) => res.end('ok'));
    await startClient(t).perform({ url: `${listener.origin}/`, method: 'post', headers: [], body: new TextEncoder().encode('x') }, ALLOWANCE(listener.origin));
    assert.equal(listener.received[0]?.method, 'POST');
    await rejectsWithCode(startClient(t).perform({ url: `${listener.origin}/`, method: 'get', headers: [], body: new Uint8Array(1) }, ALLOWANCE(listener.origin)), 'BOT_ERR_EGRESS_BAD_REQUEST');
  });
});
