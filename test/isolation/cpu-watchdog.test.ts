/**
 * CPU a plugin burns between calls (a timer left spinning after its decode
 * answered) ends only its own runner: the watchdog kills a runner burning more than
 * `maxIdleCpuPercent` of a core with no call in flight, look after look, and the host restarts it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertServing, attack, BYSTANDER_PACKAGE, HOSTILE_PACKAGE, isAlive, startChannel, waitFor } from './hostile-runner.ts';

/**
 * Low on purpose: the spinner gets what a CPU shared with parallel test files leaves it, and an
 * idle runner burns next to nothing.
 */
const LIMITS = { maxIdleCpuPercent: 25, idleCpuStrikes: 3, intervalMs: 200 };

test('a plugin that burns CPU after its call has answered ends only its own runner, which is restarted', async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE, { limits: LIMITS }), startChannel(t, BYSTANDER_PACKAGE)]);
  const firstPid = hostile.status().pid!;
  assert.deepEqual(await attack(hostile, { attack: 'spin', sliceMs: 20 }), { ok: true, value: 'spinning' });
  await waitFor('the watchdog stops the spinning runner', () => hostile.status().lastExit !== undefined);
  assert.match(hostile.status().lastExit!.reason, /^CPU between calls: \d+% of a core with no call in flight for 3 checks$/);
  await waitFor('the spinning runner is gone', () => !isAlive(firstPid));
  await assertServing(bystander);
  await waitFor('the runner is running again', () => hostile.status().state === 'running');
  assert.deepEqual(await attack(hostile, { attack: 'echo' }), { ok: true, value: 'alive' });
  // The bystander, idle all along, was left alone.
  assert.equal(bystander.status().restarts, 0);
});
