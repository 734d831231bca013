import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { PLAIN_EVENT, recordingLogger, rejectsWithCode, SOURCE, startFixturePool } from './fixture-pool.ts';

const ATTACHMENT = { type: 'attachment', data: { attachment: { kind: 'file', url: 'https://x.test/a.pdf', name: 'a.pdf' } } } as const;

test("a plugin's channelAttachmentService.getPublicUrl gets the host's answer", async (t) => {
  const asked: string[][] = [];
  const sandbox = await startFixturePool(t, 'echo', {
    hostServices: { getAttachmentPublicUrl: async (sourceId, ref) => (asked.push([sourceId, ref]), `https://host.test/dl/${ref}?t=signed`) },
  });
  const result = await sandbox.send(PLAIN_EVENT, SOURCE, ATTACHMENT, { idempotencyKey: 'k1' });
  assert.deepEqual(result, { mid: 'https://host.test/dl/a.pdf?t=signed' });
  assert.deepEqual(asked, [[SOURCE.id, 'a.pdf']]);
});

test('a host service that never answers fails the call cleanly, and the worker keeps serving', async (t) => {
  const sandbox = await startFixturePool(t, 'echo', {
    callTimeoutMs: 2_000,
    hostCallTimeoutMs: 100,
    hostServices: { getAttachmentPublicUrl: () => new Promise<string>(() => {}) },
  });
  const startedAt = performance.now();
  const error = await rejectsWithCode(sandbox.send(PLAIN_EVENT, SOURCE, ATTACHMENT, { idempotencyKey: 'k1' }), 'BOT_ERR_PLUGIN_THREW');
  assert.equal((error.cause as { code?: string }).code, 'BOT_ERR_PLUGIN_HOST_SERVICE_TIMEOUT');
  assert.ok(performance.now() - startedAt < 1_000, 'failed at the host-call timeout, not the call timeout');
  assert.deepEqual(await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'again' } }, { idempotencyKey: 'k2' }), { mid: 'user-1:k2:again' });
});

test("a host service's error reaches the plugin with its code", async (t) => {
  const failing = async (): Promise<string> => {
    throw Object.assign(new Error('no such file'), { code: 'BOT_ERR_DOWNLOAD_NOT_FOUND' });
  };
  const sandbox = await startFixturePool(t, 'echo', { hostServices: { getAttachmentPublicUrl: failing } });
  const error = await rejectsWithCode(sandbox.send(PLAIN_EVENT, SOURCE, ATTACHMENT, { idempotencyKey: 'k1' }), 'BOT_ERR_PLUGIN_THREW');
  const failed = error.cause as Error & { code?: string; cause?: Error & { code?: string } };
  assert.equal(failed.code, 'BOT_ERR_PLUGIN_HOST_SERVICE_FAILED');
  assert.deepEqual([failed.cause?.message, failed.cause?.code], ['no such file', 'BOT_ERR_DOWNLOAD_NOT_FOUND']);
});

test("the plugin's console output reaches the host logger, labelled with the channel", async (t) => {
  const logger = recordingLogger();
  const sandbox = await startFixturePool(t, 'echo', { logger });
  await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'log' } }, { idempotencyKey: 'k1' });
  // The log line travels on the bridge port, not with the task's answer: give it a moment.
  for (let i = 0; i < 50 && logger.lines.length === 0; i++) await sleep(10);
  assert.deepEqual(logger.lines, [{ level: 'warn', fields: { channel: 'echo' }, message: 'sending log to user-1' }]);
});

test("a built-in plugin's download link is only for a source a call in flight serves", async (t) => {
  const asked: string[] = [];
  const sandbox = await startFixturePool(t, 'echo', {
    hostServices: { getAttachmentPublicUrl: async (sourceId, ref) => (asked.push(sourceId), `https://host.test/${sourceId}/${ref}`) },
  });
  const own = await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: `link-for:${SOURCE.id}` } }, { idempotencyKey: 'k1' });
  assert.deepEqual(own, { mid: `https://host.test/${SOURCE.id}/a.pdf` });
  const error = await rejectsWithCode(sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'link-for:source-2' } }, { idempotencyKey: 'k2' }), 'BOT_ERR_PLUGIN_THREW');
  assert.equal(((error.cause as { cause?: { code?: string } }).cause)?.code, 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN');
  assert.deepEqual(asked, [SOURCE.id], 'the host service was never asked about the other source');
});

test("a built-in plugin's fetch naming a source no call in flight serves is performed for no source", async (t) => {
  const sourceIds: (string | undefined)[] = [];
  const sandbox = await startFixturePool(t, 'echo', {
    hostServices: {
      getAttachmentPublicUrl: async () => '',
      fetch: async (request) => {
        sourceIds.push(request.sourceId);
        return { status: 200, statusText: 'OK', headers: [], body: new TextEncoder().encode('ok'), url: request.url, redirected: false };
      },
    },
  });
  await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: `fetch-as:${SOURCE.id}` } }, { idempotencyKey: 'k1' });
  await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'fetch-as:source-2' } }, { idempotencyKey: 'k2' });
  assert.deepEqual(sourceIds, [SOURCE.id, undefined]);
});
