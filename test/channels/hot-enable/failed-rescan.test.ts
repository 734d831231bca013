import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import pino from 'pino';
import { channelFingerprint } from '../../../host/channels/channel-fingerprint.ts';
import { ChannelRegistry } from '../../../host/channels/channel-registry.ts';
import { discoverChannels } from '../../../host/channels/discover-channels.ts';
import type { DiscoveryResult } from '../../../host/channels/discovery/discovered-channel.ts';
import { readHostProvidedVersions } from '../../../host/channels/discovery/host-provided-versions.ts';
import { sandboxLoader } from '../../../host/channels/load-channel-in-sandbox.ts';
import type { ChannelCalls } from '../../../host/channels/calls/channel-calls.ts';

const HOST_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

test('a rescan that fails after discovery closes the pools it started and keeps serving the old ones', async () => {
  const load = sandboxLoader({
    callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000,
    hostServicesFor: () => ({ getAttachmentPublicUrl: async () => '' }),
    logger: pino({ level: 'silent' }),
  });
  const discovered: DiscoveryResult<ChannelCalls>[] = [];
  let statesFail = false;
  const registry = new ChannelRegistry<ChannelCalls>({
    discover: async () => {
      const results = await discoverChannels({ appRoot: HOST_ROOT, providedVersions: readHostProvidedVersions(HOST_ROOT), load });
      discovered.push(...results);
      return results;
    },
    start: load,
    fingerprint: channelFingerprint,
    enabledStates: async () => {
      if (statesFail) throw new Error('database unreachable');
      return new Map();
    },
  });
  try {
    await registry.load();
    const serving = registry.running('sample')!.loaded;
    const before = discovered.length;
    statesFail = true;
    await assert.rejects(registry.rescan(), /database unreachable/);
    const started = discovered.slice(before).flatMap((result) => (result.loaded ? [result.loaded] : []));
    assert.ok(started.length > 0);
    for (const loaded of started) await assert.rejects(loaded.sandbox.describe(), { code: 'BOT_ERR_PLUGIN_SANDBOX_CLOSED' });
    assert.equal(registry.running('sample')!.loaded, serving, 'the old pool still serves');
    assert.equal((await serving.sandbox.describe()).name, 'sample');
  } finally {
    await registry.close();
  }
});
