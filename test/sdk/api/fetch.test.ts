import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  EgressError,
  fetch,
  HttpChannelHandler,
  installHostServices,
  runForSource,
  z,
  type EgressRequest,
  type EgressResponse,
} from '@bot-ai/api';

const OK: EgressResponse = { status: 200, statusText: 'OK', headers: [['content-type', 'text/plain']], body: new TextEncoder().encode('pong'), url: 'https://api.example/ping', redirected: false };

/** Installs a host whose fetch records each request and answers `answer` (or throws it). */
function hostAnswering(answer: EgressResponse | Error = OK): EgressRequest[] {
  const seen: EgressRequest[] = [];
  installHostServices({
    getAttachmentPublicUrl: async () => '',
    fetch: async (request) => {
      seen.push(request);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });
  return seen;
}

afterEach(() => installHostServices(undefined));

describe('fetch outside a host', () => {
  test('rejects with BOT_ERR_EGRESS_UNAVAILABLE and never falls back to the global fetch', async (t) => {
    const globalFetch = t.mock.method(globalThis, 'fetch', async () => new Response('leaked'));
    await assert.rejects(fetch('https://api.example/ping'), (error: EgressError) => {
      assert.equal(error.name, 'EgressError');
      assert.equal(error.code, 'BOT_ERR_EGRESS_UNAVAILABLE');
      return true;
    });
    assert.equal(globalFetch.mock.callCount(), 0);
  });
});

describe('what fetch hands the host', () => {
  const bodies: [string, NonNullable<RequestInit['body']>, string, string | null][] = [
    ['a string', 'héllo', 'héllo', 'text/plain;charset=UTF-8'],
    ['a Uint8Array', new TextEncoder().encode('bytes'), 'bytes', null],
    ['an ArrayBuffer', new TextEncoder().encode('buffer').buffer, 'buffer', null],
    ['URLSearchParams', new URLSearchParams({ a: '1', b: 'x y' }), 'a=1&b=x+y', 'application/x-www-form-urlencoded;charset=UTF-8'],
    ['a Blob', new Blob(['blob'], { type: 'application/octet-stream' }), 'blob', 'application/octet-stream'],
  ];
  for (const [form, body, text, contentType] of bodies) {
    test(`a body given as ${form} reaches the host as its bytes, with the content type it implies`, async () => {
      const seen = hostAnswering();
      await fetch('https://api.example/echo', { method: 'POST', body });
      assert.equal(new TextDecoder().decode(seen[0]!.body), text);
      assert.equal(new Map(seen[0]!.headers).get('content-type') ?? null, contentType);
    });
  }

  test('a streamed body is read to its end', async () => {
    const seen = hostAnswering();
    const stream = new Blob(['chunk one, ', 'chunk two']).stream();
    await fetch('https://api.example/upload', { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    assert.equal(new TextDecoder().decode(seen[0]!.body), 'chunk one, chunk two');
  });

  const headerForms: [string, NonNullable<RequestInit['headers']>][] = [
    ['a record', { Authorization: 'Bearer k', 'X-Trace': 't1' }],
    ['a list of pairs', [['Authorization', 'Bearer k'], ['X-Trace', 't1']]],
    ['a Headers object', new Headers({ Authorization: 'Bearer k', 'X-Trace': 't1' })],
  ];
  for (const [form, headers] of headerForms) {
    test(`headers given as ${form} reach the host as lower-case pairs`, async () => {
      const seen = hostAnswering();
      await fetch('https://api.example/ping', { headers });
      assert.deepEqual(seen[0]!.headers, [['authorization', 'Bearer k'], ['x-trace', 't1']]);
    });
  }

  test('a Request or a URL is taken as fetch takes it: URL, method, body and redirect mode', async () => {
    const seen = hostAnswering();
    await fetch(new Request('https://api.example/a?q=1', { method: 'PATCH', body: '{}', redirect: 'manual' }));
    await fetch(new URL('https://api.example/b'));
    assert.deepEqual(
      seen.map(({ url, method, redirect, body }) => ({ url, method, redirect, body: body && new TextDecoder().decode(body) })),
      [
        { url: 'https://api.example/a?q=1', method: 'PATCH', redirect: 'manual', body: '{}' },
        { url: 'https://api.example/b', method: 'GET', redirect: 'follow', body: undefined },
      ],
    );
  });

  test('names the source of the plugin call it runs in, and none outside a call', async () => {
    const seen = hostAnswering();
    await runForSource('source-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await fetch('https://api.example/in-call');
    });
    await fetch('https://api.example/outside');
    assert.deepEqual(seen.map((request) => request.sourceId), ['source-1', undefined]);
  });
});

describe('a header value no header can carry', () => {
  for (const [form, headers] of [
    ['a record', { authorization: 'Bearer …' }],
    ['a list of pairs', [['Authorization', 'Bearer …']]],
  ] as [string, RequestInit['headers']][]) {
    test(`given as ${form}, rejects with BOT_ERR_EGRESS_BAD_REQUEST naming the header, never the value, and reaches no host`, async () => {
      const seen = hostAnswering();
      await assert.rejects(fetch('https://api.example/ping', { headers }), (error: EgressError) => {
        assert.equal(error.code, 'BOT_ERR_EGRESS_BAD_REQUEST');
        assert.match(error.message, /"authorization".*U\+2026/);
        assert.doesNotMatch(error.message, /Bearer/);
        assert.ok(error.cause instanceof TypeError, 'the TypeError stays as cause');
        return true;
      });
      assert.equal(seen.length, 0);
    });
  }
});

describe('what fetch resolves to', () => {
  test('a real Response with the status, headers, body, final URL and redirect flag the host saw', async () => {
    hostAnswering({
      status: 201,
      statusText: 'Created',
      headers: [['content-type', 'application/json'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']],
      body: new TextEncoder().encode('{"id":"m1"}'),
      url: 'https://api.example/final',
      redirected: true,
    });
    const response = await fetch('https://api.example/start', { method: 'POST', body: '{}' });
    assert.ok(response instanceof Response);
    assert.deepEqual([response.status, response.statusText, response.ok, response.url, response.redirected], [201, 'Created', true, 'https://api.example/final', true]);
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.deepEqual(await response.json(), { id: 'm1' });
  });

  test('a 204 answer has no body', async () => {
    hostAnswering({ ...OK, status: 204, statusText: 'No Content', body: new Uint8Array() });
    const response = await fetch('https://api.example/ping', { method: 'DELETE' });
    assert.deepEqual([response.status, response.body], [204, null]);
  });

  test("a host refusal rejects with an EgressError carrying the host's code", async () => {
    hostAnswering(Object.assign(new Error('https://elsewhere.example is not allowed'), { code: 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED' }));
    await assert.rejects(fetch('https://elsewhere.example/'), { name: 'EgressError', code: 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED', message: /elsewhere\.example/ });
  });

  test('any other failure of the host service rejects with BOT_ERR_EGRESS_FAILED, the original as cause', async () => {
    const lost = Object.assign(new Error('The host did not answer fetch() within 100 ms'), { code: 'BOT_ERR_PLUGIN_HOST_SERVICE_TIMEOUT' });
    hostAnswering(lost);
    await assert.rejects(fetch('https://api.example/'), (error: EgressError) => {
      assert.equal(error.code, 'BOT_ERR_EGRESS_FAILED');
      assert.equal(error.cause, lost);
      return true;
    });
  });

  test("an aborted signal rejects with the signal's reason, as fetch does", async () => {
    installHostServices({ getAttachmentPublicUrl: async () => '', fetch: () => new Promise<never>(() => {}) });
    await assert.rejects(fetch('https://api.example/slow', { signal: AbortSignal.timeout(20) }), { name: 'TimeoutError' });
    await assert.rejects(fetch('https://api.example/slow', { signal: AbortSignal.abort() }), { name: 'AbortError' });
  });
});

describe('this.http', () => {
  test("is the SDK's fetch, so a platform SDK given it goes through the host", async () => {
    class Minimal extends HttpChannelHandler {
      constructor() {
        super('minimal', z.object({}));
      }
      decode() {
        return [];
      }
      async doSendMessage() {
        const response = await this.http('https://api.example/ping');
        return { mid: await response.text() };
      }
      getSubscriberData(): never {
        throw new Error('unused');
      }
    }
    const seen = hostAnswering();
    const handler = new Minimal();
    assert.equal(handler.http, fetch);
    assert.deepEqual(await handler.doSendMessage(), { mid: 'pong' });
    assert.equal(seen.length, 1);
  });
});
