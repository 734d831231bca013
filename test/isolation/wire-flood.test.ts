/**
 * Plugin code can write valid frames to its runner's wire as fast as memory copies, and each
 * costs the host's one thread a parse: unbounded, one runner flooding log frames kept the host's
 * event loop 97% busy and a bystander channel 30 times slower. The host times what each runner's
 * frames cost it and, past the runner's wire budget, reads that wire only as the time is paid
 * back: the flood stalls the flooding runner, the host's thread stays free, an honest chatty
 * channel is not slowed, and a send cannot be taken for "not started" because its frame waited.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { encodeFrame } from '../../host/channels/runner/runner-frames.ts';
import { PLAIN_EVENT, webhookRequest } from '../channels/builtin-pool/fixture-pool.ts';
import { assertServing, attack, BYSTANDER_PACKAGE, HOSTILE_PACKAGE, SOURCE, startChannel, waitFor } from './hostile-runner.ts';

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

test('a send whose call times out while the wire was held back is an unknown outcome, never "not started"', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, { limits: { wireBudget: { hostMsPerSecond: 1 } }, callTimeoutMs: 500 });
  const flood = hostile.sandbox.receiveWebhook(webhookRequest({ attack: 'flood-frames', fd: 3, hex: BLOCK.toString('hex'), ms: 6_000 }), SOURCE).catch(() => undefined);
  await waitFor('the wire is held back', () => hostile.logger.lines.some((line) => /of the host's thread/.test(line.message)));
  // The plugin sends at once, but its `runner.send.started` waits behind the flood, unread.
  const sent = await hostile.sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'pong' } }, { idempotencyKey: 'held-back' }).then(
    () => 'answered',
    (error: { code?: string }) => error.code,
  );
  // Timed out itself, or ended with the runner the flood's own timeout stopped: either way unknown.
  assert.ok(sent === 'BOT_ERR_PLUGIN_CALL_TIMEOUT' || sent === 'BOT_ERR_PLUGIN_WORKER_CRASHED', `the send ended with ${sent}: a send that may have reached the platform must never be taken for not started`);
  await flood;
});

test("an honest plugin's console burst is cut to 100 lines a second in its runner, before it costs the host a frame", async (t) => {
  const chatty = await startChannel(t, HOSTILE_PACKAGE);
  assert.deepEqual(await attack(chatty, { attack: 'log-lines', count: 20_000 }), { ok: true, value: '20000 lines' });
  await waitFor('the runner reported the lines it kept back', () => chatty.logger.lines.some((line) => /console lines not sent to the host/.test(line.message)));
  const notSent = chatty.logger.lines.find((line) => /console lines not sent to the host/.test(line.message))!;
  const kept = chatty.logger.lines.filter((line) => /^line \d+$/.test(line.message)).length;
  assert.equal(kept + Number(/^(\d+) console lines/.exec(notSent.message)?.[1]), 20_000);
  assert.ok(kept <= 200, `${kept} lines reached the host`);
  assert.ok(!chatty.logger.lines.some((line) => /log lines of the channel's plugin dropped/.test(line.message)), 'the host had nothing to drop');
});
