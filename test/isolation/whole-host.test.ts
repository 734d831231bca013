/**
 * Through the whole host: while a hostile channel kills its own runner or hoards
 * memory outside its heap, the host answers that channel's webhooks 503 until its runner is
 * restarted, shows the runner's restarts and last exit in diagnostics, and keeps serving every
 * other channel.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { HOSTILE_ROOT, RELAXED_LIMITS, waitFor } from './hostile-runner.ts';

const SANDBOX = {
  callTimeoutMs: 15_000,
  startTimeoutMs: 30_000,
  maxHeapMb: 64,
  maxThreads: 1,
  maxQueue: 8,
  idleTimeoutMs: 60_000,
  // A backoff of a second at least keeps a killed runner down long enough to be called meanwhile.
  isolation: { mode: 'strict' as const, limits: { ...RELAXED_LIMITS, maxRssMb: 300 }, restartDelay: { initialMs: 1_000, maxMs: 2_000 } },
};

interface Diagnostic {
  name: string | null;
  isolation: string | null;
  runner: { pid: number | null; state: string; restarts: number; lastExit: { reason: string } | null } | null;
}

async function createSource(app: TestApp, channel: string): Promise<string> {
  const created = await app.request('POST', '/api/sources', { as: 'admin', body: { name: channel, channel, settings: {} } });
  assert.equal(created.status, 201, created.text);
  return created.body.ref as string;
}

async function diagnosticOf(app: TestApp, name: string): Promise<Diagnostic> {
  const response = await app.request('GET', '/api/channel/diagnostics', { as: 'viewer' });
  assert.equal(response.status, 200, response.text);
  const entry = (response.body.items as Diagnostic[]).find((item) => item.name === name);
  assert.ok(entry, `${name} is in diagnostics`);
  return entry;
}

test('a hostile channel that kills its runner or hoards memory answers 503 until restarted, while the host serves the others', async (t) => {
  const app = await createTestApp({ channels: { appRoot: HOSTILE_ROOT, sandbox: SANDBOX } });
  t.after(() => app.close());
  await app.services.channels.load();
  const [hostileRef, bystanderRef] = [await createSource(app, 'hostile'), await createSource(app, 'bystander')];
  const deliver = (ref: string, body: object) => app.request('POST', `/api/webhook/${ref}`, { body });
  const bystanderServes = async () => assert.equal((await deliver(bystanderRef, {})).status, 200, 'the bystander answers');
  const hostileRunner = () => app.services.channels.running('hostile')?.loaded;

  assert.equal((await deliver(hostileRef, { attack: 'echo' })).status, 200);
  await bystanderServes();
  const bystanderPid = (await diagnosticOf(app, 'bystander')).runner?.pid;

  const attacks = [
    ['kills its own runner', { attack: 'kill-self' }, /SIGSEGV|SIGABRT|code 139/],
    ['hoards memory outside its heap', { attack: 'allocate', chunkMb: 64, totalMb: 2_048, pauseMs: 50 }, /memory limit/],
  ] as const;
  for (const [index, [what, body, reason]] of attacks.entries()) {
    const hit = await deliver(hostileRef, body);
    assert.equal(hit.status, 503, `${what}: ${hit.text}`);
    assert.equal(hit.body.error.code, 'BOT_ERR_WEBHOOK_CHANNEL_UNAVAILABLE');
    // Down: its webhooks answer 503 at once, diagnostics say why, the other channel serves.
    const meanwhile = await deliver(hostileRef, { attack: 'echo' });
    assert.equal(meanwhile.status, 503, `${what}: answered while its runner is down`);
    const down = await diagnosticOf(app, 'hostile');
    assert.equal(down.isolation, 'sandbox');
    assert.equal(down.runner?.state, 'restarting');
    assert.match(down.runner?.lastExit?.reason ?? '', reason);
    await bystanderServes();
    // Restarted with backoff: it serves again.
    await waitFor(`the hostile runner runs again after it ${what}`, () => hostileRunner()?.status?.().state === 'running');
    assert.equal((await deliver(hostileRef, { attack: 'echo' })).status, 200);
    assert.equal((await diagnosticOf(app, 'hostile')).runner?.restarts, index + 1);
  }

  const bystander = await diagnosticOf(app, 'bystander');
  assert.deepEqual([bystander.runner?.pid, bystander.runner?.restarts, bystander.runner?.state], [bystanderPid, 0, 'running']);
  await bystanderServes();
  // /metrics counts each unplanned end, by channel: the hostile one's two, none of the bystander's.
  const metrics = await app.request('GET', '/metrics');
  assert.equal(metrics.status, 200);
  assert.match(metrics.text, /^bot_channel_runner_restarts_total\{channel="hostile"\} 2$/m);
  assert.doesNotMatch(metrics.text, /^bot_channel_runner_restarts_total\{channel="bystander"\}/m);
});
