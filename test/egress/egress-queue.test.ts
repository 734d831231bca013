import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { ChannelSource } from '@bot-ai/api';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { echo, PROBE_EVENT, startListener, TEST_LIMITS } from './egress-fixtures.ts';

// A runner's fetches beyond the host's 16 in progress wait their turn rather than fail: the
// dispatcher runs 64 events at once, each sending its reply through the channel's one runner,
// and refused sends were retried seconds later (`npm run bench -- e2e` lost most of its
// throughput to them).
const APP_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/egress', import.meta.url));
const SANDBOX = { callTimeoutMs: 10_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 100, idleTimeoutMs: 1_000 };
const SENDS = 40;

let app: TestApp;
before(async () => {
  app = await createTestApp({ channels: { appRoot: APP_ROOT, sandbox: SANDBOX }, egress: { limits: { ...TEST_LIMITS, timeoutMs: 8_000 } } });
  await app.services.channels.load();
});
after(() => app.close());

test('40 sends at once through one runner all reach the platform, at most 16 of them at a time', async (t) => {
  let inFlight = 0;
  let mostAtOnce = 0;
  // Each request is held until 16 are in flight (or a moment has passed), so the host's bound,
  // not the timing, decides how many overlap.
  const waiting: (() => void)[] = [];
  const platform = await startListener(t, (request, res) => {
    inFlight += 1;
    mostAtOnce = Math.max(mostAtOnce, inFlight);
    const answer = () => {
      inFlight -= 1;
      echo(request, res);
    };
    waiting.push(answer);
    if (waiting.length >= 16) for (const release of waiting.splice(0)) release();
    else setTimeout(() => waiting.includes(answer) && waiting.splice(waiting.indexOf(answer), 1) && answer(), 200);
  });
  const response = await app.request('POST', '/api/sources', { as: 'admin', body: { name: 'Busy', channel: 'egress_probe', settings: { api_url: `${platform.origin}/api` } } });
  assert.equal(response.status, 201, response.text);
  const { id, ref, settings, active } = response.body as ChannelSource;
  const source = { id, ref, settings, active };

  const sends = Array.from({ length: SENDS }, (_, index) =>
    app.services.channels.call('egress_probe', (sandbox) => sandbox.send(PROBE_EVENT, source, { type: 'text', data: { text: `${platform.origin}/api/messages` } }, { idempotencyKey: `k-${index}` })),
  );
  const results = await Promise.allSettled(sends);
  const failed = results.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason?.cause?.message ?? (result as PromiseRejectedResult).reason));
  assert.deepEqual(failed, [], 'no send refused');
  assert.equal(platform.received.length, SENDS);
  assert.equal(mostAtOnce, 16, 'the host performs 16 of one runner\'s requests at a time');
});
