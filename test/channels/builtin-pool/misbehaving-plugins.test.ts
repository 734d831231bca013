import assert from 'node:assert/strict';
import { test } from 'node:test';
import { echoBody, handshakeRequest, MISBEHAVIOUR_TIMEOUT_MS, rejectsWithCode, SOURCE, startFixturePool, webhookRequest } from './fixture-pool.ts';

// Room for the host's own scheduling on a busy test machine; the point is "not much later".
const SLACK_MS = 400;

// The allocating decode must die of the heap limit, not of the time limit: on a loaded machine
// filling 32 MB can take longer than the other cases' timeout, so it gets a generous one.
const HEAP_CASE_TIMEOUT_MS = 5_000;

const MISBEHAVIOURS = [
  ['loops forever', 'decode-loops', 'BOT_ERR_PLUGIN_CALL_TIMEOUT', MISBEHAVIOUR_TIMEOUT_MS],
  ['allocates without bound', 'decode-allocates', 'BOT_ERR_PLUGIN_WORKER_CRASHED', HEAP_CASE_TIMEOUT_MS],
  ['calls process.exit', 'decode-exits', 'BOT_ERR_PLUGIN_WORKER_CRASHED', MISBEHAVIOUR_TIMEOUT_MS],
  ['throws a plain Error', 'decode-throws', 'BOT_ERR_PLUGIN_THREW', MISBEHAVIOUR_TIMEOUT_MS],
] as const;

test('misbehaving decoders', { concurrency: true }, async (t) => {
  for (const [what, fixture, code, timeoutMs] of MISBEHAVIOURS) {
    void t.test(`a decode that ${what} gets ${code} within the timeout, and the pool recovers`, async (t) => {
      const sandbox = await startFixturePool(t, fixture, { callTimeoutMs: timeoutMs });
      const startedAt = performance.now();
      await rejectsWithCode(sandbox.receiveWebhook(webhookRequest({}), SOURCE), code);
      assert.ok(performance.now() - startedAt < timeoutMs + SLACK_MS, 'answered within the timeout');
      // Piscina replaces the worker; once the replacement has loaded the plugin it serves the next call.
      await sandbox.ready();
      const handshake = await sandbox.verifyWebhook(handshakeRequest(), SOURCE);
      assert.deepEqual(handshake, { statusCode: 200, body: 'ok', headers: { 'content-type': 'text/plain; charset=utf-8' } });
    });
  }
});

test('a healthy channel keeps answering while another one loops', async (t) => {
  const [looping, echo] = await Promise.all([startFixturePool(t, 'decode-loops', { callTimeoutMs: MISBEHAVIOUR_TIMEOUT_MS }), startFixturePool(t, 'echo')]);
  const stuck = rejectsWithCode(looping.receiveWebhook(webhookRequest({}), SOURCE), 'BOT_ERR_PLUGIN_CALL_TIMEOUT');
  for (let i = 0; i < 5; i++) {
    const result = await echo.receiveWebhook(webhookRequest(echoBody(`n${i}`)), SOURCE);
    assert.equal(result.outcome, 'accepted');
  }
  await stuck;
});

test('a plain Error thrown by decode keeps its name and message as the cause', async (t) => {
  const sandbox = await startFixturePool(t, 'decode-throws');
  const error = await rejectsWithCode(sandbox.receiveWebhook(webhookRequest({}), SOURCE), 'BOT_ERR_PLUGIN_THREW');
  const cause = error.cause as Error;
  assert.equal(cause.name, 'Error');
  assert.equal(cause.message, 'decode broke on purpose');
});

test('a worker killed for its memory says so in the cause', async (t) => {
  const sandbox = await startFixturePool(t, 'decode-allocates');
  const error = await rejectsWithCode(sandbox.receiveWebhook(webhookRequest({}), SOURCE), 'BOT_ERR_PLUGIN_WORKER_CRASHED');
  assert.equal((error.cause as { code?: string }).code, 'ERR_WORKER_OUT_OF_MEMORY');
});
