/**
 * A plugin runs on its runner's one thread (no worker threads: see runner-main.ts), so the faults
 * the host's thread pools contain (a call that loops, hangs, exits, or exhausts its heap) must be
 * contained by the runner: each costs its call, the runner is restarted when it must be, and the
 * channel serves again.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { sandboxLoader } from '../../host/channels/load-channel-in-sandbox.ts';
import { webhookRequest } from '../channels/builtin-pool/fixture-pool.ts';
import { channelSettings, HOSTILE_PACKAGE, SOURCE, waitFor, type Channel } from './hostile-runner.ts';

const CALL_TIMEOUT_MS = 1_500;

async function startWithShortCalls(t: TestContext): Promise<Channel> {
  const settings = { ...channelSettings(), callTimeoutMs: CALL_TIMEOUT_MS, maxHeapMb: 64 };
  const file = `${HOSTILE_PACKAGE}/dist/index.channel.js`;
  const loaded = await sandboxLoader(settings)({ file, realFile: file, origin: 'package' });
  t.after(() => loaded.close());
  return { ...loaded, logger: settings.logger };
}

const call = (channel: Channel, attack: string) => channel.sandbox.receiveWebhook(webhookRequest({ attack }), SOURCE);

async function servesAgain(channel: Channel, restarts: number): Promise<void> {
  await waitFor('the runner running again', () => channel.status().state === 'running' && channel.status().restarts === restarts);
  const result = await call(channel, 'echo');
  assert.equal(result.outcome, 'accepted');
}

/**
 * The codes a fault may fail its call with. Filling a 64 MB heap takes a few hundred ms on an idle
 * machine, but on a busy one the call's time limit can come first; either way the runner is ended
 * and restarted, which is the outcome that matters.
 */
const FAULTS = [
  ['loops without yielding its thread', 'loop', ['BOT_ERR_PLUGIN_CALL_TIMEOUT'], true],
  ['exhausts its heap', 'heap', ['BOT_ERR_PLUGIN_WORKER_CRASHED', 'BOT_ERR_PLUGIN_CALL_TIMEOUT'], true],
  ['calls process.exit', 'exit', ['BOT_ERR_PLUGIN_WORKER_CRASHED'], true],
  ['never settles', 'hang', ['BOT_ERR_PLUGIN_CALL_TIMEOUT'], false],
] as const;

for (const [what, attack, codes, restarts] of FAULTS) {
  test(`a call that ${what} fails with ${codes.join(' or ')}${restarts ? ', its runner is restarted,' : ''} and the channel serves again`, async (t) => {
    const channel = await startWithShortCalls(t);
    const pid = channel.status().pid;
    const error = await call(channel, attack).then(
      () => assert.fail(`the call that ${what} succeeded`),
      (failure: unknown) => failure as { code?: unknown },
    );
    assert.ok((codes as readonly unknown[]).includes(error.code), `failed with ${String(error.code)}: ${String(error)}`);
    await servesAgain(channel, restarts ? 1 : 0);
    if (restarts) assert.notEqual(channel.status().pid, pid);
  });
}
