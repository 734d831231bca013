import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app.ts';

const APP_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/attachments', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

let t: TestApp;
let files: { id: string; ref: string };
let other: { id: string; ref: string };
before(async () => {
  t = await createTestApp({ channels: { appRoot: APP_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
  assert.deepEqual(t.services.channels.registered().map((channel) => channel.name).sort(), ['attach_files', 'attach_other']);
  const create = async (name: string, channel: string) => (await t.request('POST', '/api/sources', { as: 'admin', body: { name, channel } })).body;
  files = await create('Files', 'attach_files');
  other = await create('Other', 'attach_other');
  await t.services.attachments.store.save(files.id, 'report.pdf', 'the report');
  await t.services.attachments.store.save(other.id, 'report.pdf', 'the other report');
});
after(() => t.close());

/** Posts a webhook to the attach_files source, then reads the event it committed. */
async function decodeThroughPlugin(body: Record<string, unknown>): Promise<{ downloadUrl?: string; refused?: { code: string; hostCode: string; message: string } }> {
  const response = await t.request('POST', `/api/webhook/${files.ref}`, { body: JSON.stringify(body) });
  assert.equal(response.status, 200, response.text);
  const row = await t.database.db('inbound_events').where({ source_id: files.id, event_id: body.id }).first();
  return row.event.channelAttributes;
}

describe('download links asked for by a sandboxed plugin', () => {
  test('the link a plugin gets through channelAttachmentService downloads the file', async () => {
    const { downloadUrl } = await decodeThroughPlugin({ id: 'evt-1', file: 'report.pdf' });
    assert.ok(downloadUrl && downloadUrl.startsWith(`${TEST_PUBLIC_URL}/api/webhook/${files.ref}/download/report.pdf?t=`), String(downloadUrl));
    const response = await t.request('GET', downloadUrl.slice(TEST_PUBLIC_URL.length));
    assert.equal(response.status, 200);
    assert.equal(response.text, 'the report');
    assert.equal(response.headers['content-disposition'], 'attachment; filename="report.pdf"');
  });

  test("a plugin asking for a link to another channel's source is refused", async () => {
    const { downloadUrl, refused } = await decodeThroughPlugin({ id: 'evt-2', file: 'report.pdf', askFor: other.id });
    assert.equal(downloadUrl, undefined);
    assert.equal(refused?.code, 'BOT_ERR_PLUGIN_HOST_SERVICE_FAILED');
    assert.equal(refused?.hostCode, 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN');
    assert.doesNotMatch(refused!.message, /attach_other/);
  });

  test('a plugin asking for an unknown source or a path is refused, without learning whether the source exists', async () => {
    const unknown = await decodeThroughPlugin({ id: 'evt-3', file: 'report.pdf', askFor: '0c6b1f4e-2d7a-4e59-8b3c-1a2b3c4d5e6f' });
    assert.equal(unknown.refused?.hostCode, 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN');
    const traversal = await decodeThroughPlugin({ id: 'evt-4', file: `../${other.id}/report.pdf` });
    assert.equal(traversal.refused?.hostCode, 'BOT_ERR_ATTACHMENT_NAME_INVALID');
  });

  test("a link of one source does not open the same name in another source's folder", async () => {
    const { downloadUrl } = await decodeThroughPlugin({ id: 'evt-5', file: 'report.pdf' });
    const token = new URL(downloadUrl!).searchParams.get('t');
    const response = await t.request('GET', `/api/webhook/${other.ref}/download/report.pdf?t=${token}`);
    assert.equal(response.status, 403);
    assert.doesNotMatch(response.text, /report/);
  });
});
