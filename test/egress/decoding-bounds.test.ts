import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { constants, deflateRawSync } from 'node:zlib';
import { rejectsWithCode, startClient, startListener, TEST_LIMITS } from './egress-fixtures.ts';

// Decoding an answer can take far longer than receiving it: codings stacked over empty deflate
// blocks decode for hours into nothing, so the size limit never trips. The time limit must cover
// the decoding too, not only the bytes on the wire.

/** An empty stored deflate block: five bytes that decode to nothing. */
const EMPTY_BLOCK = Buffer.from([0, 0, 0, 0xff, 0xff]);

/** Raw deflate of `inner` repeated `times`, ending on a full flush so that it may be repeated in turn. */
function layer(inner: Buffer, times: number): Buffer {
  return deflateRawSync(Buffer.concat(Array.from({ length: times }, () => inner)), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
}

test('stacked codings that decode slowly into nothing end at the time limit, and decoding stops', { timeout: 20_000 }, async (t) => {
  // Three deflate codings: some kilobytes on the wire, billions of empty blocks to decode.
  const body = Buffer.concat(Array.from({ length: 4 }, () => layer(layer(EMPTY_BLOCK.subarray(0), 200_000), 1_000)));
  const listener = await startListener(t, (_request, res) => res.writeHead(200, { 'content-encoding': 'deflate, deflate, deflate' }).end(body));
  const startedAt = performance.now();
  await rejectsWithCode(startClient(t).perform({ url: `${listener.origin}/`, method: 'GET', headers: [] }, { hosts: [], origins: [listener.origin] }), 'BOT_ERR_EGRESS_TIMEOUT');
  assert.ok(performance.now() - startedAt < TEST_LIMITS.timeoutMs + 3_000, 'gave up near the limit');
  // Nothing keeps decoding once it has given up: the process's CPU stays quiet.
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const spent = process.cpuUsage(before);
  assert.ok((spent.user + spent.system) / 1000 < 250, `still decoding: ${(spent.user + spent.system) / 1000} ms of CPU in 500 ms`);
});
