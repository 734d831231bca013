import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { after, before, describe, test } from 'node:test';
import { createChannelRegistry } from '../../../host/channels/create-channel-registry.ts';
import type { ChannelRegistry } from '../../../host/channels/channel-registry.ts';
import type { ChannelCalls } from '../../../host/channels/calls/channel-calls.ts';
import { ChannelStateStore } from '../../../host/channels/channel-state-store.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';

const HOST_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MIXED_ROOT = fileURLToPath(new URL('../../fixtures/plugin-roots/mixed', import.meta.url));

let registry: ChannelRegistry<ChannelCalls>;
let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
  registry = createChannelRegistry({
    appRoot: MIXED_ROOT,
    hostRoot: HOST_ROOT,
    sandbox: { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 },
    hostServicesFor: () => ({ getAttachmentPublicUrl: async () => 'https://host.test/download' }),
    states: new ChannelStateStore(database.db),
    logger: pino({ level: 'silent' }),
  });
  await registry.load();
});
after(async () => {
  await registry.close();
  await database.close();
});

const byFile = (fragment: string) => registry.diagnostics().find((entry) => entry.file.includes(`/${fragment}/`));

describe('discovery over a plugin root holding one bad plugin per rejection reason', () => {
  const rejections: [string, string][] = [
    ['bot-channel-misnamed', 'BOT_ERR_PLUGIN_PACKAGE_NAME'],
    ['bot-channel-no-exports', 'BOT_ERR_PLUGIN_PACKAGE_EXPORTS'],
    ['bot-channel-old-sdk', 'BOT_ERR_PLUGIN_PEER_UNSATISFIED'],
    ['bot-channel-missing-peer', 'BOT_ERR_PLUGIN_PEER_UNRESOLVED'],
    ['bot-channel-no-default', 'BOT_ERR_PLUGIN_NO_DEFAULT_EXPORT'],
    ['bot-channel-not-a-class', 'BOT_ERR_PLUGIN_NOT_A_CLASS'],
    ['bot-channel-not-injectable', 'BOT_ERR_PLUGIN_NOT_INJECTABLE'],
    ['bot-channel-wrong-base', 'BOT_ERR_PLUGIN_WRONG_BASE_CLASS'],
    ['bot-channel-throws-at-import', 'BOT_ERR_PLUGIN_IMPORT_FAILED'],
    ['bot-channel-throws-in-constructor', 'BOT_ERR_PLUGIN_CONSTRUCT_FAILED'],
    ['bot-channel-no-settings', 'BOT_ERR_PLUGIN_NO_SETTINGS_SCHEMA'],
    ['bot-channel-twin-of-good', 'BOT_ERR_PLUGIN_DUPLICATE_NAME'],
  ];
  for (const [dir, code] of rejections) {
    test(`rejects ${dir} with ${code}`, () => {
      const entry = byFile(dir);
      assert.ok(entry, `${dir} was not discovered`);
      assert.equal(entry.status, 'rejected');
      assert.equal(entry.code, code, String(entry.message));
      assert.ok(entry.message && entry.message.length > 0);
    });
  }

  test('registers the valid package, the local channel, and a package whose extra peer resolves from its own folder', () => {
    assert.deepEqual(registry.registered().map((channel) => channel.name).sort(), ['good', 'local_echo', 'own_peer']);
    assert.equal(registry.get('good')?.origin, 'package');
    assert.equal(registry.get('local_echo')?.origin, 'local');
    assert.deepEqual(registry.get('good')?.package, { name: 'bot-channel-good', version: '1.0.0' });
  });

  test("ignores channel files inside a package's own node_modules", () => {
    assert.equal(byFile('bot-channel-nested'), undefined);
  });

  test('publishes each registered channel settings as JSON Schema with the password widget', () => {
    const schema = registry.running('good')!.loaded.description.settingsJsonSchema as { properties: Record<string, Record<string, unknown>> };
    assert.equal(schema.properties.token?.['ui:widget'], 'password');
  });

  test('a registered channel still answers after its neighbours were rejected', async () => {
    const response = await registry.running('good')!.loaded.sandbox.verifyWebhook(
      { method: 'GET', headers: {}, query: {}, params: {}, body: undefined, rawBody: new Uint8Array() },
      { id: 's1', ref: 'r1', settings: {}, active: true },
    );
    assert.equal(response.statusCode, 200);
  });
});
