import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { EgressRequest } from '@bot-ai/api';
import { echo, rejectsWithCode, resolverFor, startClient, startListener, text, TEST_LIMITS } from './egress-fixtures.ts';

const NAME = 'api.example.test';
const bytes = (value: string) => new TextEncoder().encode(value);
const get = (url: string, extra: Partial<EgressRequest> = {}): EgressRequest => ({ url, method: 'GET', headers: [], ...extra });

describe('a host the package declares', () => {
  test('is reached on the address its name resolves to, with the name as Host', async (t) => {
    const listener = await startListener(t, echo);
    // Only here does 127.0.0.1 count as public: it stands in for the platform's public address.
    const client = startClient(t, { resolve: resolverFor({ [NAME]: ['127.0.0.1'] }), isPublicAddress: (address) => address === '127.0.0.1' });
    const request: EgressRequest = { url: `http://${NAME}:${listener.port}/v1/send?x=1`, method: 'POST', headers: [['content-type', 'text/plain']], body: bytes('hi') };
    const answer = await client.perform(request, { hosts: [NAME], origins: [] });
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(text(answer.body)), { method: 'POST', url: '/v1/send?x=1', body: 'hi' });
    assert.deepEqual([answer.url, answer.redirected], [request.url, false]);
    assert.equal(listener.received[0]?.headers.host, `${NAME}:${listener.port}`);
  });

  test('a *.domain pattern reaches a name below it, and only on a public address', async (t) => {
    const listener = await startListener(t, echo);
    const edge = 'scontent-iad3-1.xx.cdn.example.test';
    const client = startClient(t, { resolve: resolverFor({ [edge]: ['127.0.0.1'] }), isPublicAddress: (address) => address === '127.0.0.1' });
    const answer = await client.perform(get(`http://${edge}:${listener.port}/v/photo.jpg`), { hosts: ['*.cdn.example.test'], origins: [] });
    assert.equal(answer.status, 200);
    assert.equal(listener.received[0]?.headers.host, `${edge}:${listener.port}`);
    const strict = startClient(t, { resolve: resolverFor({ [edge]: ['127.0.0.1'] }) });
    await rejectsWithCode(strict.perform(get(`http://${edge}:${listener.port}/`), { hosts: ['*.cdn.example.test'], origins: [] }), 'BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC');
    await rejectsWithCode(client.perform(get(`http://cdn.example.test:${listener.port}/`), { hosts: ['*.cdn.example.test'], origins: [] }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(listener.received.length, 1);
  });

  test('is refused when its name resolves to a private address, before any connection', async (t) => {
    const listener = await startListener(t, echo);
    const client = startClient(t, { resolve: resolverFor({ [NAME]: ['127.0.0.1'] }) });
    const error = await rejectsWithCode(client.perform(get(`http://${NAME}:${listener.port}/`), { hosts: [NAME], origins: [] }), 'BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC');
    assert.match(error.message, /api\.example\.test resolves to 127\.0\.0\.1/);
    assert.equal(listener.received.length, 0);
  });

  test('is refused whole when any one of its addresses is not public', async (t) => {
    const listener = await startListener(t, echo);
    const client = startClient(t, { resolve: resolverFor({ [NAME]: ['93.184.215.14', '10.0.0.7'] }) });
    await rejectsWithCode(client.perform(get(`http://${NAME}:${listener.port}/`), { hosts: [NAME], origins: [] }), 'BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC');
  });

  test('resolves the name once, for the check and the connection alike (no second answer to rebind)', async (t) => {
    const listener = await startListener(t, echo);
    const asked: string[] = [];
    const resolve = resolverFor({ [NAME]: ['127.0.0.1'] });
    const client = startClient(t, { resolve: (name) => (asked.push(name), resolve(name)), isPublicAddress: (address) => address === '127.0.0.1' });
    await client.perform(get(`http://${NAME}:${listener.port}/one`), { hosts: [NAME], origins: [] });
    assert.deepEqual(asked, [NAME]);
    assert.deepEqual(listener.received.map((request) => request.url), ['/one']);
  });
});

describe('a destination outside the rules', () => {
  test('an undeclared host is refused with HOST_NOT_ALLOWED and never contacted; the message names the origin, not the path', async (t) => {
    const listener = await startListener(t, echo);
    const client = startClient(t, { resolve: resolverFor({ 'other.example.test': ['127.0.0.1'] }), isPublicAddress: () => true });
    const url = `http://other.example.test:${listener.port}/bot123:SECRET/sendMessage`;
    const error = await rejectsWithCode(client.perform(get(url), { hosts: [NAME], origins: [] }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.match(error.message, /other\.example\.test/);
    assert.doesNotMatch(error.message, /SECRET/);
    assert.equal(listener.received.length, 0);
  });

  test('an address literal is not a declared host', async (t) => {
    const listener = await startListener(t, echo);
    const client = startClient(t, { isPublicAddress: () => true });
    await rejectsWithCode(client.perform(get(`${listener.origin}/`), { hosts: [NAME], origins: [] }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
  });
});

describe("an operator's x-egress origin", () => {
  test('reaches a loopback listener', async (t) => {
    const listener = await startListener(t, echo);
    const answer = await startClient(t).perform(get(`${listener.origin}/api/messages`), { hosts: [], origins: [listener.origin] });
    assert.equal(JSON.parse(text(answer.body)).url, '/api/messages');
  });

  test('does not open another port of the same host, nor the same port over another scheme', async (t) => {
    const allowed = await startListener(t, echo);
    const other = await startListener(t, echo);
    const client = startClient(t);
    const origins = [allowed.origin];
    await rejectsWithCode(client.perform(get(`${other.origin}/`), { hosts: [], origins }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    await rejectsWithCode(client.perform(get(`https://127.0.0.1:${allowed.port}/`), { hosts: [], origins }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(other.received.length + allowed.received.length, 0);
  });

  test('that nothing listens on fails with BOT_ERR_EGRESS_FAILED, naming the cause', async (t) => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const origin = `http://127.0.0.1:${port}`;
    const error = await rejectsWithCode(startClient(t).perform(get(`${origin}/`), { hosts: [], origins: [origin] }), 'BOT_ERR_EGRESS_FAILED');
    assert.match(error.message, /ECONNREFUSED/);
  });
});

describe('redirects', () => {
  test('a redirect to a host outside the rules is refused, and that host is never contacted', async (t) => {
    const elsewhere = await startListener(t, echo);
    const allowed = await startListener(t, (_request, res) => res.writeHead(302, { location: `${elsewhere.origin}/steal` }).end());
    await rejectsWithCode(startClient(t).perform(get(`${allowed.origin}/`), { hosts: [], origins: [allowed.origin] }), 'BOT_ERR_EGRESS_REDIRECT_REFUSED');
    assert.equal(elsewhere.received.length, 0);
  });

  test('a redirect within the rules is followed: the answer is the last hop’s, marked redirected', async (t) => {
    const listener = await startListener(t, (request, res) => (request.url === '/start' ? res.writeHead(301, { location: '/final' }).end() : echo(request, res)));
    const answer = await startClient(t).perform(get(`${listener.origin}/start`), { hosts: [], origins: [listener.origin] });
    assert.deepEqual([answer.status, answer.url, answer.redirected, JSON.parse(text(answer.body)).url], [200, `${listener.origin}/final`, true, '/final']);
  });

  test('a 303 turns a POST into a GET without its body, and leaving the origin drops the credentials', async (t) => {
    const second = await startListener(t, echo);
    const first = await startListener(t, (_request, res) => res.writeHead(303, { location: `${second.origin}/done` }).end());
    const request: EgressRequest = {
      url: `${first.origin}/submit`,
      method: 'POST',
      headers: [['authorization', 'Bearer secret'], ['content-type', 'application/json'], ['x-trace', 't1']],
      body: bytes('{}'),
    };
    await startClient(t).perform(request, { hosts: [], origins: [first.origin, second.origin] });
    const [followed] = second.received;
    assert.deepEqual([followed?.method, followed?.body, followed?.headers.authorization, followed?.headers['content-type'], followed?.headers['x-trace']], ['GET', '', undefined, undefined, 't1']);
  });

  test('more than BOT_EGRESS_MAX_REDIRECTS redirects fail with TOO_MANY_REDIRECTS', async (t) => {
    const listener = await startListener(t, (request, res) => res.writeHead(302, { location: `${request.url}x` }).end());
    await rejectsWithCode(startClient(t).perform(get(`${listener.origin}/`), { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_TOO_MANY_REDIRECTS');
    assert.equal(listener.received.length, TEST_LIMITS.maxRedirects + 1);
  });

  test("redirect: 'manual' answers the redirect itself; redirect: 'error' refuses it", async (t) => {
    const listener = await startListener(t, (_request, res) => res.writeHead(307, { location: '/next' }).end());
    const client = startClient(t);
    const allowance = { hosts: [], origins: [listener.origin] };
    const manual = await client.perform(get(`${listener.origin}/`, { redirect: 'manual' }), allowance);
    assert.deepEqual([manual.status, new Map(manual.headers).get('location')], [307, '/next']);
    await rejectsWithCode(client.perform(get(`${listener.origin}/`, { redirect: 'error' }), allowance), 'BOT_ERR_EGRESS_REDIRECT_REFUSED');
  });

  test('a redirect to a URL that is not http(s) is refused', async (t) => {
    const listener = await startListener(t, (_request, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    await rejectsWithCode(startClient(t).perform(get(`${listener.origin}/`), { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_REDIRECT_REFUSED');
  });
});

describe('bounds', () => {
  test('a body over the request limit is refused before any connection', async (t) => {
    const listener = await startListener(t, echo);
    const request: EgressRequest = { url: `${listener.origin}/`, method: 'POST', headers: [], body: new Uint8Array(TEST_LIMITS.maxRequestBytes + 1) };
    await rejectsWithCode(startClient(t).perform(request, { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_REQUEST_TOO_LARGE');
    assert.equal(listener.received.length, 0);
  });

  test('an answer that declares more than the response limit is refused', async (t) => {
    const listener = await startListener(t, (_request, res) => res.writeHead(200, { 'content-length': TEST_LIMITS.maxResponseBytes + 1 }).end('x'.repeat(TEST_LIMITS.maxResponseBytes + 1)));
    await rejectsWithCode(startClient(t).perform(get(`${listener.origin}/`), { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_RESPONSE_TOO_LARGE');
  });

  test('an endless answer is cut off once past the response limit, and its connection closed', async (t) => {
    let closed = false;
    const listener = await startListener(t, (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const timer = setInterval(() => res.write(Buffer.alloc(1_024)), 1);
      res.on('close', () => ((closed = true), clearInterval(timer)));
    });
    await rejectsWithCode(startClient(t).perform(get(`${listener.origin}/`), { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_RESPONSE_TOO_LARGE');
    for (let i = 0; i < 50 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(closed, 'the listener saw the connection close');
  });

  test('a compressed answer is decoded, and it is the decoded size that counts', async (t) => {
    const listener = await startListener(t, (request, res) => {
      const plain = request.url === '/small' ? 'hello' : '0'.repeat(TEST_LIMITS.maxResponseBytes * 10);
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(plain));
    });
    const client = startClient(t);
    const allowance = { hosts: [], origins: [listener.origin] };
    assert.equal(text((await client.perform(get(`${listener.origin}/small`), allowance)).body), 'hello');
    await rejectsWithCode(client.perform(get(`${listener.origin}/bomb`), allowance), 'BOT_ERR_EGRESS_RESPONSE_TOO_LARGE');
  });

  test('a destination that does not answer fails with TIMEOUT at the time limit, and the connection is closed', async (t) => {
    let closed = false;
    const listener = await startListener(t, (_request, res) => res.on('close', () => (closed = true)));
    const client = startClient(t, { limits: { ...TEST_LIMITS, timeoutMs: 200 } });
    const startedAt = performance.now();
    await rejectsWithCode(client.perform(get(`${listener.origin}/`), { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_TIMEOUT');
    assert.ok(performance.now() - startedAt < 1_500, 'gave up at the limit');
    for (let i = 0; i < 50 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(closed, 'the listener saw the connection close');
  });

  test("the caller's own shorter deadline wins over the configured limit", async (t) => {
    const listener = await startListener(t, () => {});
    const startedAt = performance.now();
    await rejectsWithCode(startClient(t).perform(get(`${listener.origin}/`, { timeoutMs: 100 }), { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_TIMEOUT');
    assert.ok(performance.now() - startedAt < TEST_LIMITS.timeoutMs - 500);
  });
});

describe('malformed requests', () => {
  const cases: [string, (origin: string) => EgressRequest, string][] = [
    ['a file: URL', () => get('file:///etc/passwd'), 'BOT_ERR_EGRESS_BAD_URL'],
    ['a relative URL', () => get('/api/messages'), 'BOT_ERR_EGRESS_BAD_URL'],
    ['credentials in the URL', (origin) => get(origin.replace('http://', 'http://user:pw@')), 'BOT_ERR_EGRESS_BAD_URL'],
    ['a CONNECT request', (origin) => ({ url: origin, method: 'CONNECT', headers: [] }), 'BOT_ERR_EGRESS_BAD_REQUEST'],
    ['a header value with a line break', (origin) => get(origin, { headers: [['x-a', 'b\r\nx-injected: 1']] }), 'BOT_ERR_EGRESS_BAD_REQUEST'],
    ['a GET with a body', (origin) => get(origin, { body: bytes('x') }), 'BOT_ERR_EGRESS_BAD_REQUEST'],
    ['a body that is not bytes', (origin) => ({ url: origin, method: 'POST', headers: [], body: 'text' as unknown as Uint8Array }), 'BOT_ERR_EGRESS_BAD_REQUEST'],
  ];
  for (const [what, request, code] of cases) {
    test(`${what} is refused with ${code}`, async (t) => {
      const listener = await startListener(t, echo);
      await rejectsWithCode(startClient(t).perform(request(listener.origin), { hosts: [], origins: [listener.origin] }), code);
      assert.equal(listener.received.length, 0);
    });
  }

  test('a header value a connection cannot carry (a pasted …) is refused with BAD_REQUEST naming the header, not as unreachable', async (t) => {
    const listener = await startListener(t, echo);
    const request = get(`${listener.origin}/`, { headers: [['Authorization', 'Bearer …']] });
    const error = await rejectsWithCode(startClient(t).perform(request, { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_BAD_REQUEST');
    assert.match(error.message, /"authorization"/i);
    assert.match(error.message, /U\+2026/);
    assert.doesNotMatch(error.message, /Bearer/, 'the value is a credential: never in the message');
    assert.equal(listener.received.length, 0);
  });

  test('the Host and connection headers are the host’s own: a plugin cannot set them', async (t) => {
    const listener = await startListener(t, echo);
    const headers: [string, string][] = [['host', 'internal.example'], ['connection', 'upgrade'], ['X-Ok', '1']];
    await startClient(t).perform(get(`${listener.origin}/`, { headers }), { hosts: [], origins: [listener.origin] });
    const [received] = listener.received;
    assert.deepEqual([received?.headers.host, received?.headers['x-ok']], [`127.0.0.1:${listener.port}`, '1']);
    assert.notEqual(received?.headers.connection, 'upgrade');
  });
});
