/**
 * The wire budget charges each frame its own parse and dispatch, no more than its bytes could
 * cost: a stall of the host's own (here its log write blocking for 2 s) that falls in a log line
 * read right after a 4 MiB answer is not charged to the channel, which would then be held back
 * for seconds and its calls timed out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxLoader } from '../../host/channels/load-channel-in-sandbox.ts';
import { encodeFrame } from '../../host/channels/runner/runner-frames.ts';
import { attack, channelSettings, HOSTILE_PACKAGE, waitFor } from './hostile-runner.ts';

const STALL_MESSAGE = 'the host blocks writing this line';

test("a stall of the host's own in a small frame is not charged to the channel, whatever frame came before it in the read", async (t) => {
  const settings = channelSettings();
  const info = settings.logger.info;
  settings.logger.info = (fields, message) => {
    if (message === STALL_MESSAGE) for (const until = performance.now() + 2_000; performance.now() < until; );
    info(fields, message);
  };
  const file = `${HOSTILE_PACKAGE}/dist/index.channel.js`;
  const loaded = await sandboxLoader(settings)({ file, realFile: file, origin: 'package' });
  t.after(() => loaded.close());
  const channel = { ...loaded, logger: settings.logger };
  // A late answer of 4 MiB (to no call in flight: read and dropped) and a log line behind it, in one write.
  const answer = encodeFrame({ type: 'runner.reply', id: 999_999, reply: { ok: true, value: 'x'.repeat(4 * 1024 * 1024) } });
  const line = encodeFrame({ type: 'runner.log', level: 'info', message: STALL_MESSAGE, fields: {} });
  assert.equal((await attack(channel, { attack: 'flood-fd', fd: 3, hex: Buffer.concat([answer, line]).toString('hex'), mb: 0, byte: 0 })).ok, true);
  await waitFor('the line was logged', () => channel.logger.lines.some((logged) => logged.message === STALL_MESSAGE));
  const heldBack = channel.logger.lines.find((logged) => /of the host's thread/.test(logged.message));
  assert.equal(heldBack, undefined, `the channel was held back (${JSON.stringify(heldBack?.fields)}) for a stall of the host's own`);
});
