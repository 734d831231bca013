/**
 * A plugin signals no process of the host's machine — not the host, not another
 * process — and a plugin that kills its own runner ends only that runner, which the host
 * restarts with backoff.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test, type TestContext } from 'node:test';
import { rejectsWithCode } from '../channels/builtin-pool/fixture-pool.ts';
import { assertRefused, assertServing, attack, BYSTANDER_PACKAGE, HOSTILE_PACKAGE, isAlive, startChannel, waitFor } from './hostile-runner.ts';

/** A process of the host's machine for the plugin to aim at. */
function victim(t: TestContext): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  assert.ok(child.pid);
  return child.pid;
}

test('a plugin signals neither the host nor any other process of its machine', async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  const target = victim(t);
  const bystanderPid = bystander.status().pid!;
  for (const [what, pid] of [
    ['the host', process.pid],
    ["the host's parent", process.ppid],
    ['a process of the machine', target],
    ["another channel's runner", bystanderPid],
  ] as const) {
    assertRefused(await attack(hostile, { attack: 'kill', pid, signal: 'SIGKILL' }), `killing ${what}`);
  }
  assert.ok(isAlive(target), 'the victim is alive');
  assert.ok(isAlive(process.ppid), "the host's parent is alive");
  assert.equal(bystander.status().restarts, 0);
  await assertServing(bystander);
});

test('a plugin that signals every process it may (kill -1) reaches nothing outside its sandbox', async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  const target = victim(t);
  await attack(hostile, { attack: 'kill', pid: -1, signal: 'SIGKILL' }).catch(() => undefined);
  assert.ok(isAlive(target), 'the victim is alive');
  assert.equal(bystander.status().restarts, 0, "the other channel's runner was not hit");
  await assertServing(bystander);
});

test('a plugin cannot signal its own runner to death: the sandbox\'s first process is guarded from its own signals', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) await attack(hostile, { attack: 'kill', pid: 1, signal });
  assert.deepEqual(await attack(hostile, { attack: 'echo' }), { ok: true, value: 'alive' });
  assert.equal(hostile.status().restarts, 0);
});

test('a plugin that kills its own runner ends only that runner: it answers 503 meanwhile and is restarted', async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  const firstPid = hostile.status().pid;
  await rejectsWithCode(attack(hostile, { attack: 'kill-self' }), 'BOT_ERR_PLUGIN_WORKER_CRASHED');
  const status = hostile.status();
  // The abort ends in SIGSEGV (the kernel ignores a namespace's first process's own SIGABRT, so
  // the C library's last resort faults), which bubblewrap reports as its own exit code 139.
  assert.match(status.lastExit?.reason ?? '', /killed by SIG(SEGV|ABRT)|exited with code 139/);
  if (status.state !== 'running') await rejectsWithCode(attack(hostile, { attack: 'echo' }), 'BOT_ERR_PLUGIN_RUNNER_DOWN');
  await waitFor('the runner is running again', () => hostile.status().state === 'running');
  assert.equal(hostile.status().restarts, 1);
  assert.notEqual(hostile.status().pid, firstPid);
  assert.deepEqual(await attack(hostile, { attack: 'echo' }), { ok: true, value: 'alive' });
  await assertServing(bystander);
});
