/**
 * Plugin code can write valid frames to its runner's wire as fast as memory copies, and each
 * costs the host's one thread a parse: unbounded, one runner flooding log frames kept the host's
 * event loop 97% busy. The host reads what a runner sends unasked at its wire budget's pace, so
 * the flood stalls the flooding runner's own writes, and the host's thread stays free.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeFrame } from '../../host/channels/runner/runner-frames.ts';
import { assertServing, attack, BYSTANDER_PACKAGE, HOSTILE_PACKAGE, startChannel } from './hostile-runner.ts';

const BUDGET = { messagesPerSecond: 1_000, bytesPerSecond: 1024 * 1024 };
/** Ten log frames of 20 KB: 200 KB a write. */
const BLOCK = Buffer.concat(Array.from({ length: 10 }, () => encodeFrame({ type: 'runner.log', level: 'debug', message: 'x'.repeat(20_000), fields: {} })));
const FLOOD_MS = 2_000;
/**
 * Kept to 1 MB a second, the host takes about 3 MB in the two seconds (the second's burst, two
 * seconds' pace, the socket's buffer): some 15 writes. Unbounded, it parses hundreds of MB a
 * second, even on a loaded machine: thousands of writes.
 */
const MAX_WRITES = 60;

test("a runner flooding its wire with valid messages is read at its budget's pace: its writes stall, the host keeps serving", async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE, { limits: { wireBudget: BUDGET } }), startChannel(t, BYSTANDER_PACKAGE)]);
  const outcome = await attack(hostile, { attack: 'flood-frames', fd: 3, hex: BLOCK.toString('hex'), ms: FLOOD_MS });
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  const writes = Number(/^(\d+) blocks written/.exec(String(outcome.ok && outcome.value))?.[1]);
  assert.ok(writes > 0 && writes <= MAX_WRITES, `the flooding runner wrote ${writes} blocks of 200 KB in ${FLOOD_MS} ms`);
  const warnings = hostile.logger.lines.filter((line) => line.level === 'warn' && /sends more than 1000 messages or 1048576 bytes a second unasked/.test(line.message));
  assert.equal(warnings.length, 1, 'one warning for the episode, not one per pause');
  await assertServing(bystander);
  assert.deepEqual(await attack(hostile, { attack: 'echo' }), { ok: true, value: 'alive' });
  assert.equal(hostile.status().restarts, 0, 'slowed, not ended');
});
