/**
 * Plugin code can write valid frames to its runner's wire as fast as memory copies, and each
 * costs the host's one thread a parse: unbounded, one runner flooding log frames kept the host's
 * event loop 97% busy and a bystander channel 30 times slower. The host times what each runner's
 * frames cost it and, past the runner's wire budget, reads that wire only as the time is paid
 * back: the flood stalls the flooding runner, the host's thread stays free, and an honest chatty
 * channel is not slowed.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { encodeFrame } from '../../host/channels/runner/runner-frames.ts';
import { assertServing, attack, BYSTANDER_PACKAGE, HOSTILE_PACKAGE, startChannel, waitFor } from './hostile-runner.ts';

/** Ten log frames of 20 KB: 200 KB a write. */
const BLOCK = Buffer.concat(Array.from({ length: 10 }, () => encodeFrame({ type: 'runner.log', level: 'debug', message: 'x'.repeat(20_000), fields: {} })));

test("a runner flooding its wire with valid messages gets its budget of the host's thread, no more: the host stays free and serving", async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE, { limits: { wireBudget: { hostMsPerSecond: 20 } } }), startChannel(t, BYSTANDER_PACKAGE)]);
  const before = performance.eventLoopUtilization();
  const outcome = await attack(hostile, { attack: 'flood-frames', fd: 3, hex: BLOCK.toString('hex'), ms: 2_000 });
  const busy = performance.eventLoopUtilization(before).utilization;
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  // Unbounded, the host's loop is busy nearly all the flood long (0.97 measured); held to 2% of
  // its time, it is idle most of it, however fast or loaded the machine.
  assert.ok(busy < 0.5, `the host's event loop was ${Math.round(busy * 100)}% busy during the flood`);
  const warnings = hostile.logger.lines.filter((line) => line.level === 'warn' && /takes more than 20 ms a second of the host's thread/.test(line.message));
  assert.equal(warnings.length, 1, 'one warning, not one per pause');
  await assertServing(bystander);
  assert.deepEqual(await attack(hostile, { attack: 'echo' }), { ok: true, value: 'alive' });
  assert.equal(hostile.status().restarts, 0, 'slowed, not ended');
});

test("an honest plugin's console burst (20,000 lines in one call) stays within its budget: answered, its wire never held back", async (t) => {
  const chatty = await startChannel(t, HOSTILE_PACKAGE);
  assert.deepEqual(await attack(chatty, { attack: 'log-lines', count: 20_000 }), { ok: true, value: '20000 lines' });
  assert.ok(!chatty.logger.lines.some((line) => /of the host's thread/.test(line.message)), 'the wire was not held back');
  // The host keeps 200 of its lines a second and counts the rest.
  await waitFor('the host counted the lines it dropped', () => chatty.logger.lines.some((line) => /log lines of the channel's plugin dropped/.test(line.message)));
});
