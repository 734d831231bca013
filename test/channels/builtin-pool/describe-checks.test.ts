import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CHANNEL_CAPABILITIES } from '@bot-ai/api';
import { BuiltinChannelPool } from '../../../host/channels/builtin-pool/builtin-channel-pool.ts';
import { fixtureFile, recordingLogger, rejectsWithCode, SOURCE, startFixturePool, TEST_LIMITS, webhookRequest } from './fixture-pool.ts';

test('describes a valid channel: kind, name, settings as JSON Schema, capabilities', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const description = await sandbox.describe();
  assert.equal(description.kind, 'http');
  assert.equal(description.name, 'echo');
  assert.deepEqual(description.capabilities, { ...DEFAULT_CHANNEL_CAPABILITIES, quickReply: true, maxTextLength: 640 });
  assert.equal(description.settingsJsonSchema.type, 'object');
  assert.deepEqual(description.settingsJsonSchema.properties, {
    greeting: { type: 'string', default: 'hi', description: 'Prefix of every echo' },
    api_key: { type: 'string', 'ui:widget': 'password' },
  });
});

test('describes a WebSocket channel and refuses webhook calls on it', async (t) => {
  const sandbox = await startFixturePool(t, 'websocket');
  assert.equal((await sandbox.describe()).kind, 'websocket');
  await rejectsWithCode(sandbox.receiveWebhook(webhookRequest({}), SOURCE), 'BOT_ERR_PLUGIN_CALL_UNSUPPORTED');
});

const REJECTIONS = [
  ['whose default export is missing', 'no-default-export', 'BOT_ERR_PLUGIN_NO_DEFAULT_EXPORT'],
  ['whose default export is not a class', 'not-a-class', 'BOT_ERR_PLUGIN_NOT_A_CLASS'],
  ['whose class is not marked injectable', 'not-injectable', 'BOT_ERR_PLUGIN_NOT_INJECTABLE'],
  ['whose class extends no channel handler', 'wrong-base-class', 'BOT_ERR_PLUGIN_WRONG_BASE_CLASS'],
  ['that throws at import', 'throws-at-import', 'BOT_ERR_PLUGIN_IMPORT_FAILED'],
  ['whose constructor throws', 'throws-in-constructor', 'BOT_ERR_PLUGIN_CONSTRUCT_FAILED'],
  ['without a settings schema', 'no-settings-schema', 'BOT_ERR_PLUGIN_NO_SETTINGS_SCHEMA'],
  ['whose settings schema has no JSON Schema form', 'invalid-settings-schema', 'BOT_ERR_PLUGIN_SETTINGS_SCHEMA_INVALID'],
  ['with an empty name', 'no-name', 'BOT_ERR_PLUGIN_NO_NAME'],
] as const;

test('rejects each bad plugin with its code, from inside a worker', { concurrency: true }, async (t) => {
  for (const [what, fixture, code] of REJECTIONS) {
    void t.test(`rejects a plugin ${what} with ${code}`, async (t) => {
      const sandbox = await startFixturePool(t, fixture);
      const error = await rejectsWithCode(sandbox.describe(), code);
      assert.equal(error.name, 'SandboxError');
      assert.match(error.message, /\S/);
      // Every call answers with the same reason, not only describe().
      await rejectsWithCode(sandbox.receiveWebhook(webhookRequest({}), SOURCE), code);
    });
  }
});

test('keeps the import error as the cause of an import failure', async (t) => {
  const sandbox = await startFixturePool(t, 'throws-at-import');
  const error = await rejectsWithCode(sandbox.describe(), 'BOT_ERR_PLUGIN_IMPORT_FAILED');
  assert.equal((error.cause as Error).message, 'missing configuration at import');
});

test('fails to start, with BOT_ERR_PLUGIN_START_TIMEOUT, a plugin whose import never finishes', async () => {
  const started = BuiltinChannelPool.start({
    file: fixtureFile('import-hangs'),
    ...TEST_LIMITS,
    startTimeoutMs: 300,
    hostServices: { getAttachmentPublicUrl: async () => '' },
    logger: recordingLogger(),
  });
  await rejectsWithCode(started, 'BOT_ERR_PLUGIN_START_TIMEOUT');
});

test('refuses options that make no sense, naming the option', async () => {
  const options = { file: fixtureFile('echo'), ...TEST_LIMITS, maxQueue: 0, hostServices: { getAttachmentPublicUrl: async () => '' }, logger: recordingLogger() };
  await assert.rejects(BuiltinChannelPool.start(options), /options\.maxQueue must be a positive integer/);
});
