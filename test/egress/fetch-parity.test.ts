import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { EgressRequest, EgressResponse } from '@bot-ai/api';
import { fetch } from 'undici';
import { startClient, startListener, text, type ReceivedRequest } from './egress-fixtures.ts';

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
      const request: EgressRequest = { url: `${listener.origin}/`, method: 'GET', headers: [], redirect: 'manual' };
      const expected = await throughFetch(request);
      const actual = await startClient(t).perform(request, ALLOWANCE(listener.origin));
      const withoutDate = (answer: EgressResponse) => ({ ...answer, headers: answer.headers.filter(([header]) => header !== 'date') });
      assert.deepEqual(withoutDate(actual), withoutDate(expected));
    });
  }

  const encodings: [string, (plain: Buffer) => Buffer][] = [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ];
  for (const [encoding, compress] of encodings) {
    test(`a ${encoding} body is decoded, on an error answer too; the encoding headers describe what was sent, so they go`, async (t) => {
      const listener = await startListener(t, (_request, res) => res.writeHead(500, { 'content-encoding': encoding, 'content-type': 'application/json' }).end(compress(Buffer.from('{"ok":false}'))));
      const request: EgressRequest = { url: `${listener.origin}/`, method: 'GET', headers: [] };
      const expected = await throughFetch(request);
      const actual = await startClient(t).perform(request, ALLOWANCE(listener.origin));
      assert.equal(text(actual.body), '{"ok":false}');
      assert.deepEqual([actual.status, text(actual.body)], [expected.status, text(expected.body)]);
      const decodedAway = new Set(['content-encoding', 'content-length', 'date']);
      assert.deepEqual(
        actual.headers.filter(([header]) => header !== 'date'),
        expected.headers.filter(([header]) => !decodedAway.has(header)),
      );
    });
  }
});
