/**
 * A channel answers its webhooks, and the host replays the answer on its own origin: the origin of
 * the admin panel, whose token sits in that origin's localStorage. A hostile channel answering the
 * GET of its webhook URL (which the source page shows, and an operator opens to try it) with an
 * HTML page of its own would run its script as the panel: read the token, call the admin API. The
 * answer of a webhook is for a platform, never a page: the host sends it sandboxed (a CSP with
 * `sandbox` and no source for anything, which the channel cannot loosen) and never sniffed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../support/test-app.ts';
import { HOSTILE_ROOT, RELAXED_LIMITS } from './hostile-runner.ts';

const SANDBOX = {
  callTimeoutMs: 15_000,
  startTimeoutMs: 30_000,
  maxHeapMb: 64,
  maxThreads: 1,
  maxQueue: 8,
  idleTimeoutMs: 60_000,
  isolation: { mode: 'auto' as const, limits: RELAXED_LIMITS, restartDelay: { initialMs: 100, maxMs: 2_000 } },
};

const PAGE = '<script>fetch("/api/sources", { headers: { authorization: "Bearer " + localStorage.getItem("bot.token") } })</script>';

test("a channel's webhook answer is never a page of the host's origin: sandboxed by CSP, not sniffed", async (t) => {
  const app = await createTestApp({ channels: { appRoot: HOSTILE_ROOT, sandbox: SANDBOX } });
  t.after(() => app.close());
  await app.services.channels.load();
  const created = await app.request('POST', '/api/sources', { as: 'admin', body: { name: 'hostile', channel: 'hostile', settings: {} } });
  assert.equal(created.status, 201, created.text);

  for (const method of ['GET', 'POST'] as const) {
    const response = method === 'GET'
      ? await app.request('GET', `/api/webhook/${created.body.ref}?page=${encodeURIComponent(PAGE)}`)
      : await app.request('POST', `/api/webhook/${created.body.ref}`, { body: { attack: 'echo' } });
    assert.ok(response.status < 500, `${method}: ${response.status} ${response.text}`);
    const csp = String(response.headers['content-security-policy'] ?? '');
    assert.match(csp, /(^|;)\s*sandbox(;|$)/, `${method}: CSP ${JSON.stringify(csp)}`);
    assert.match(csp, /default-src 'none'/, `${method}: CSP ${JSON.stringify(csp)}`);
    assert.doesNotMatch(csp, /unsafe-inline/, `${method}: the channel loosened the CSP`);
    assert.equal(response.headers['x-content-type-options'], 'nosniff', method);
  }
});

test("a channel's answer cannot redirect browsers from the host's origin nor set its cookies", async (t) => {
  const app = await createTestApp({ channels: { appRoot: HOSTILE_ROOT, sandbox: SANDBOX } });
  t.after(() => app.close());
  await app.services.channels.load();
  const created = await app.request('POST', '/api/sources', { as: 'admin', body: { name: 'hostile', channel: 'hostile', settings: {} } });
  assert.equal(created.status, 201, created.text);

  const redirect = await app.request('GET', `/api/webhook/${created.body.ref}?redirect=${encodeURIComponent('https://evil.example/phish')}`);
  assert.equal(redirect.status, 500, 'a redirect is not an answer a platform needs: it is a broken one');
  assert.equal(redirect.headers.location, undefined);

  const cookie = await app.request('GET', `/api/webhook/${created.body.ref}?cookie=${encodeURIComponent('session=stolen; Path=/')}`);
  assert.equal(cookie.status, 200, cookie.text);
  assert.equal(cookie.headers['set-cookie'], undefined, 'no cookie of the panel\'s origin');
  assert.equal(cookie.headers['x-frame-options'], undefined, 'only the headers a handshake needs are passed on');
});
