/**
 * A hostile channel forges the `outcome` of its runner's answer to a webhook (the runner writes
 * its own frames: whatever the plugin-side task put there is the plugin's to change). The host
 * labels `bot_webhook_ack_seconds` with that outcome: had it taken the string as it came, every
 * webhook to the hostile source (anyone may post one) would add a time series to the host's
 * metrics, without bound. Only the outcomes the host knows may become a label.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
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

const KNOWN_OUTCOMES = new Set(['accepted', 'rejected', 'invalid', 'failed']);

test("a runner's forged webhook outcome never becomes a metrics label", async (t) => {
  const app = await createTestApp({ channels: { appRoot: HOSTILE_ROOT, sandbox: SANDBOX } });
  t.after(() => app.close());
  await app.services.channels.load();
  const created = await app.request('POST', '/api/sources', { as: 'admin', body: { name: 'hostile', channel: 'hostile', settings: {} } });
  assert.equal(created.status, 201, created.text);
  const forged = `forged-${randomUUID()}`;

  const response = await app.request('POST', `/api/webhook/${created.body.ref}`, {
    body: { attack: 'rewrite-next-answer', find: '"outcome":"accepted"', replace: `"outcome":"${forged}"` },
  });
  assert.ok(response.status === 200 || response.status >= 500, `${response.status} ${response.text}`);

  const metrics = (await app.request('GET', '/metrics')).text;
  const outcomes = new Set([...metrics.matchAll(/^bot_webhook_ack_seconds_count\{channel="hostile",outcome="([^"]*)"\}/gm)].map((match) => match[1]));
  assert.ok(outcomes.size > 0, 'the webhook was timed');
  assert.ok(!metrics.includes(forged), `the forged outcome is a label: ${[...outcomes].join(', ')}`);
  for (const outcome of outcomes) assert.ok(KNOWN_OUTCOMES.has(outcome!), `unknown outcome label ${outcome}`);
});
