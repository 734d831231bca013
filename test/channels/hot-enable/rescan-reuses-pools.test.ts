import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import pino from 'pino';
import { channelFingerprint } from '../../../host/channels/channel-fingerprint.ts';
import { ChannelRegistry } from '../../../host/channels/channel-registry.ts';
import { discoverChannels } from '../../../host/channels/discover-channels.ts';
import { readHostProvidedVersions } from '../../../host/channels/discovery/host-provided-versions.ts';
import { sandboxLoader } from '../../../host/channels/load-channel-in-sandbox.ts';
import type { ChannelFile } from '../../../host/channels/discovery/scan-channel-files.ts';
import type { ChannelCalls } from '../../../host/channels/calls/channel-calls.ts';
import { UpgradablePluginRoot } from './upgradable-plugin-root.ts';

const HOST_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

test('a rescan starts workers only for channels whose code changed; the others keep their running pool', async () => {
  const root = await UpgradablePluginRoot.create();
  const sandboxLoad = sandboxLoader({
    callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000,
    hostServicesFor: () => ({ getAttachmentPublicUrl: async () => '' }),
    logger: pino({ level: 'silent' }),
  });
  const loads: string[] = [];
  const load = (file: ChannelFile) => {
    loads.push(file.realFile);
    return sandboxLoad(file);
  };
  const registry = new ChannelRegistry<ChannelCalls>({
    discover: (reuse) => discoverChannels({ appRoot: root.dir, providedVersions: readHostProvidedVersions(HOST_ROOT), load, reuse }),
    start: load,
    fingerprint: channelFingerprint,
    enabledStates: async () => new Map(),
  });
  try {
    await root.install('steady', '1.0.0');
    await root.install('moving', '1.0.0');
    await registry.load();
    // Each channel found once (the SDK's built-in ones among them).
    const atStart = loads.length;
    assert.ok(loads.some((file) => file.includes('bot-channel-steady')) && loads.some((file) => file.includes('bot-channel-moving')));
    const steady = registry.running('steady')!.loaded;

    assert.deepEqual(await registry.rescan(), { added: [], removed: [], upgraded: [], rejected: [] });
    assert.equal(loads.length, atStart, 'nothing changed on disk: no worker started');

    await root.install('moving', '2.0.0');
    const report = await registry.rescan();
    assert.deepEqual(report.upgraded, [{ name: 'moving', from: '1.0.0', to: '2.0.0' }]);
    assert.equal(loads.length, atStart + 1, 'one worker pool started, for the changed channel only');
    assert.match(loads.at(-1)!, /bot-channel-moving/);
    assert.equal(registry.running('steady')!.loaded, steady, 'the unchanged channel keeps its pool');
    assert.equal((await steady.sandbox.describe()).name, 'steady', 'and it still serves');
  } finally {
    await registry.close();
    await root.close();
  }
});
