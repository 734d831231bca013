/**
 * A runner may have 16 host service calls in progress and 1,024 more waiting. Those waiting when
 * it ends are not started: a plugin cannot queue a thousand egress requests, crash, and have the
 * host keep making them on its behalf while its runner restarts.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { EgressRequest, EgressResponse, HostServices } from '@bot-ai/api';
import { attack, HOSTILE_PACKAGE, startChannel, waitFor } from './hostile-runner.ts';

const FIRED = 300;
const TARGET_URL = 'https://platform.test/many';
/** The 16 in progress, and as many again started before the exit: far fewer than those fired. */
const MAX_PERFORMED = 48;

test('the service calls a runner queued are not started once it has ended', async (t) => {
  let performed = 0;
  const hostServicesFor = (): HostServices => ({
    getAttachmentPublicUrl: async () => '',
    fetch: async (request: EgressRequest): Promise<EgressResponse> => {
      if (request.url === TARGET_URL) performed++;
      await sleep(100);
      return { status: 200, statusText: 'OK', headers: [], body: new Uint8Array(), url: 'https://platform.test/', redirected: false };
    },
  });
  const channel = await startChannel(t, HOSTILE_PACKAGE, { hostServicesFor });
  assert.deepEqual(await attack(channel, { attack: 'fetch-many-then-exit', url: TARGET_URL, count: FIRED }), { ok: true, value: 'fired' });
  await waitFor('the runner has exited', () => channel.status().lastExit !== undefined);
  // Settled: no new request for a second.
  for (let last = -1; last !== performed; ) {
    last = performed;
    await sleep(1_000);
  }
  assert.ok(performed > 0 && performed <= MAX_PERFORMED, `the host made ${performed} of the ${FIRED} requests for a runner that had ended`);
});
