import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { createServices } from '../../../host/services.ts';
import { createTestApp } from '../../support/test-app.ts';
import { createPluginRoot, writeChannelPackage } from '../../support/temp-plugin-root.ts';
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

/** A channel whose import leaves a mark in the host's log (its console goes there). */
async function installLoudChannel(marker: string): Promise<string> {
  const root = await createPluginRoot('bot-dormant-root-');
  await writeChannelPackage(
    root,
    'loud',
    `import { HttpChannelHandler, Injectable, z } from '@bot-ai/api';
console.log(${JSON.stringify(marker)});
class LoudChannel extends HttpChannelHandler {
  constructor() { super('loud', z.object({})); }
  decode() { return []; }
  async doSendMessage() { return { mid: 'm' }; }
  getSubscriberData() { throw new Error('not used'); }
}
Injectable()(LoudChannel);
export default LoudChannel;
`,
  );
  return root;
}

/** A logger keeping every line, so a test can tell whether plugin code ran. */
function capturingLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
  return { logger: pino({ level: 'info' }, stream), lines };
}

async function until(condition: () => boolean, what: string, deadlineMs = 20_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a disabled channel is never imported: not by a rescan, not by another host starting, only once enabled again', async (t) => {
  const marker = `loud-import-${randomUUID()}`;
  const root = await installLoudChannel(marker);
  t.after(() => rm(root, { recursive: true, force: true }));
  const { logger, lines } = capturingLogger();
  const imports = () => lines.filter((line) => line.includes(marker)).length;
  const app = await createTestApp({ channels: { appRoot: root, sandbox: SANDBOX }, logger });
  t.after(() => app.close());

  await app.services.channels.load();
  await until(() => imports() === 1, 'the first import');
  const disabled = await app.request('POST', '/api/channel/loud/disable', { as: 'admin' });
  assert.equal(disabled.status, 200, disabled.text);
  assert.equal(app.services.channels.get('loud')?.loaded, undefined, 'its runner is stopped');

  const rescan = await app.request('POST', '/api/channel/rescan', { as: 'admin' });
  assert.equal(rescan.status, 200, rescan.text);
  const listed = await app.request('GET', '/api/channel', { as: 'admin' });
  assert.deepEqual(
    listed.body.items.filter((channel: { name: string }) => channel.name === 'loud').map((channel: { enabled: boolean }) => channel.enabled),
    [false],
    'still listed, as disabled, from what it declared',
  );

  // Another host on the same database discovers the same app root from scratch.
  const other = createServices({ db: app.database.db, logger, channels: { appRoot: root, sandbox: SANDBOX } });
  t.after(() => other.channels.close());
  await other.channels.load();
  assert.equal(other.channels.get('loud')?.enabled, false);
  assert.equal(other.channels.get('loud')?.description.name, 'loud');
  assert.equal(imports(), 1, 'neither the rescan nor the other host imported the disabled channel');

  const enabled = await app.request('POST', '/api/channel/loud/enable', { as: 'admin' });
  assert.equal(enabled.status, 200, enabled.text);
  await until(() => imports() === 2, 'the import once enabled');
});
