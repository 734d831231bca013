/**
 * Memory a plugin holds outside the JS heap (Buffers), which no heap limit sees,
 * ends only its own runner: the host's watchdog counts the runner's whole process tree and kills
 * it past `maxRssMb`, answers 503 meanwhile, and restarts it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { rejectsWithCode } from '../channels/builtin-pool/fixture-pool.ts';
import { assertServing, attack, BYSTANDER_PACKAGE, HOSTILE_PACKAGE, isAlive, processesWith, startChannel, waitFor } from './hostile-runner.ts';

/** An idle runner holds about 150 MB; the attacks go far beyond this. */
const MAX_RSS_MB = 300;
const LIMITS = { maxRssMb: MAX_RSS_MB, intervalMs: 100 };
/** 2 GB in 64 MB steps, each one resident: what the runner would hold without the watchdog. */
const HOARD = { attack: 'allocate', chunkMb: 64, totalMb: 2_048, pauseMs: 50 };

test('a plugin hoarding memory outside its heap ends only its own runner, which answers 503 until it is restarted', async (t) => {
  // A backoff of a second keeps the runner down long enough to call it meanwhile.
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE, { limits: LIMITS, restartDelayMs: 1_000 }), startChannel(t, BYSTANDER_PACKAGE)]);
  const firstPid = hostile.status().pid!;
  const crashed = await rejectsWithCode(attack(hostile, HOARD), 'BOT_ERR_PLUGIN_WORKER_CRASHED');
  assert.match(crashed.message, /memory limit/);
  await waitFor('the runner is restarting', () => hostile.status().state === 'restarting');
  assert.match(hostile.status().lastExit?.reason ?? '', new RegExp(`memory limit: \\d+ MB resident > ${MAX_RSS_MB} MB`));
  const refused = await rejectsWithCode(attack(hostile, { attack: 'echo' }), 'BOT_ERR_PLUGIN_RUNNER_DOWN');
  assert.equal((refused as { status?: number }).status, 503);
  await waitFor('the hoarding runner is gone', () => !isAlive(firstPid));
  await assertServing(bystander);
  await waitFor('the runner is running again', () => hostile.status().state === 'running');
  assert.equal(hostile.status().restarts, 1);
  assert.deepEqual(await attack(hostile, { attack: 'echo' }), { ok: true, value: 'alive' });
  await assertServing(bystander);
});

/** A process that holds 1 GB and lives on; `marker` in its command line finds it. */
function hogCode(marker: string): string {
  return `const held = []; for (let i = 0; i < 16; i++) held.push(Buffer.alloc(64 << 20, 1)); setInterval(() => {}, 1000); // ${marker}`;
}

/**
 * Started from a thread of its own without the runner's flags, where a permission model would not
 * reach, and kept alive: the process stays that thread's child.
 */
function spawnFromThread(marker: string): string {
  return `const { parentPort } = require('node:worker_threads');
    try {
      const child = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(hogCode(marker))}], { stdio: 'ignore' });
      child.once('spawn', () => parentPort.postMessage({ ok: true, value: 'spawned' }));
      child.once('error', (error) => parentPort.postMessage({ ok: false, code: error.code }));
    } catch (error) { parentPort.postMessage({ ok: false, code: error.code }); }`;
}

const HOG_ROUTES = [
  ['its own thread', (marker: string) => ({ attack: 'spawn', command: process.execPath, args: ['-e', hogCode(marker)] })],
  ['a thread it starts without the runner flags', (marker: string) => ({ attack: 'worker', code: spawnFromThread(marker), execArgv: [], keep: true })],
] as const;

for (const [from, body] of HOG_ROUTES) {
  test(`memory held by a process a plugin starts from ${from} counts against its runner's limit`, async (t) => {
    const hostile = await startChannel(t, HOSTILE_PACKAGE, { limits: LIMITS });
    const marker = `bot-test-${randomUUID()}`;
    t.after(() => waitFor('no process the plugin started is left', () => processesWith(marker).length === 0));
    const outcome = await attack(hostile, body(marker));
    const started = outcome.ok && (outcome.value === 'spawn' || (outcome.value as { ok?: boolean }).ok === true);
    // Refused outright, or the runner is killed for the memory of its whole tree.
    if (started) await waitFor('the runner is killed for its memory', () => /memory limit/.test(hostile.status().lastExit?.reason ?? ''), 15_000);
  });
}

test("files a plugin writes inside its sandbox hold no memory beyond its runner's limit", async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, { limits: LIMITS });
  // A tmpfs file is nobody's RSS: refused, cut short by a size limit, or counted — not held.
  const outcome = await attack(hostile, { attack: 'fill-file', path: `/tmp/hoard-${randomUUID()}`, mb: 1_024 }).catch((error: Error) => error);
  if ('ok' in outcome && outcome.ok) {
    await waitFor('the runner is killed for its memory', () => /memory limit/.test(hostile.status().lastExit?.reason ?? ''), 10_000);
  }
});
