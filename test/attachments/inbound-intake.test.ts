import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { inject } from 'light-my-request';
import { PHOTO_API_KEY as API_KEY, PHOTO_URL_TOKEN as URL_TOKEN, startPhotoHost, type PhotoHost, type PhotoPlatform } from '../support/photo-platform.ts';
import { TEST_PUBLIC_URL, type TestApp } from '../support/test-app.ts';

// The whole way in (see test/support/photo-platform.ts): a webhook of the photo_probe fixture
// channel stores an attachment message holding a platform file id; the dispatcher asks the channel
// where the file is, downloads it under the channel's egress rules, and the workflow (which replies
// with `$string($input.attachments)`) sees the host's own link.
const MAX_RESPONSE_BYTES = 64 * 1024;

let host: PhotoHost;
let app: TestApp;
let platform: PhotoPlatform;
let source: { id: string; ref: string };
let logLines: string[];

before(async () => {
  host = await startPhotoHost({ maxResponseBytes: MAX_RESPONSE_BYTES });
  ({ app, platform, source, logLines } = host);
});

after(() => host?.close());

const photoFrom = (sender: string, fileId: string) => host.photoFrom(sender, fileId);
const intakeLogsOf = (sender: string) => host.intakeLogsOf(sender);
const storedFiles = () => host.storedFiles();

test('a photo reaches the workflow as a link of the host that serves the same bytes; the platform URL and token are kept nowhere', async () => {
  const bytes = randomBytes(20_000);
  platform.files.set('photo-1.jpg', bytes);
  platform.located.set('file-1', `${platform.origin}/files/photo-1.jpg?token=${URL_TOKEN}`);

  const [attachment, ...more] = await photoFrom('ann', 'file-1');
  assert.equal(more.length, 0);
  assert.equal(attachment!.kind, 'image');
  assert.equal(attachment!.platformId, 'file-1', 'the platform id is kept');
  assert.equal(attachment!.mimeType, 'image/jpeg');
  const link = String(attachment!.url);
  assert.ok(link.startsWith(`${TEST_PUBLIC_URL}/api/webhook/${source.ref}/download/`), link);
  assert.match(new URL(link).pathname, /-1\.jpg$/, 'a generated name that keeps the extension');
  assert.deepEqual(platform.fileRequests.at(-1), { url: `/files/photo-1.jpg?token=${URL_TOKEN}`, authorization: `Bearer ${API_KEY}` });

  const download = await inject(app.app.callback(), { method: 'GET', url: link.slice(TEST_PUBLIC_URL.length) });
  assert.equal(download.statusCode, 200);
  assert.ok(download.rawPayload.equals(bytes), 'the link serves the bytes the platform held');

  const [stored] = await app.database.db('conversation_messages').join('inbound_events as e', 'e.id', 'conversation_messages.inbound_event_id').where('e.event_id', 'evt-ann').select('conversation_messages.message');
  assert.equal((stored.message as { data: { attachments: { url: string }[] } }).data.attachments[0]!.url, link, 'the thread records the host link');
  const everything = JSON.stringify([await app.database.db('conversation_messages').select(), await app.database.db('workflow_runs').select(), await app.database.db('workflow_run_steps').select(), logLines]);
  for (const secret of [URL_TOKEN, API_KEY, '/files/photo-1.jpg']) assert.ok(!everything.includes(secret), `${secret} was stored or logged`);
});

test('a download the egress rules refuse still runs the workflow, with the attachment without a url, logged once with its code', async () => {
  // A server the source grants no egress to, holding the file: the host must not go there.
  const elsewhere = createServer((_request, response) => response.writeHead(200).end('not for the host'));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  let reached = 0;
  elsewhere.on('request', () => reached++);
  const elsewhereOrigin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  try {
    platform.located.set('file-2', `${elsewhereOrigin}/files/photo-2.jpg?token=${URL_TOKEN}`);
    const linesBefore = logLines.length;
    const [attachment] = await photoFrom('bob', 'file-2');
    assert.deepEqual(attachment, { kind: 'image', platformId: 'file-2', mimeType: 'image/jpeg' });
    assert.equal(reached, 0, 'the host never reached an origin outside the rules');

    const logs = await intakeLogsOf('bob');
    assert.equal(logs.length, 1, JSON.stringify(logs));
    assert.equal(logs[0]!.code, 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(logs[0]!.origin, elsewhereOrigin, 'the origin only');
    assert.equal(logLines.slice(linesBefore).filter((line) => line.includes('BOT_ERR_EGRESS_HOST_NOT_ALLOWED')).length, 1, 'one line in all the logs');
    const line = JSON.stringify(logs[0]);
    for (const secret of [URL_TOKEN, API_KEY, '/files/']) assert.ok(!line.includes(secret), `${secret} logged: ${line}`);
    const [event] = await app.database.db('inbound_events').where({ event_id: 'evt-bob' }).select('status', 'attempts');
    assert.deepEqual(event, { status: 'done', attempts: 1 }, 'not retried for the file');
  } finally {
    elsewhere.closeAllConnections();
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  }
});

test('a file larger than the egress limit is refused: not stored, and the workflow sees it without a url', async () => {
  platform.files.set('huge.jpg', randomBytes(MAX_RESPONSE_BYTES + 1));
  platform.located.set('file-3', `${platform.origin}/files/huge.jpg?token=${URL_TOKEN}`);
  const filesBefore = await storedFiles();

  const [attachment] = await photoFrom('cyd', 'file-3');
  assert.deepEqual(attachment, { kind: 'image', platformId: 'file-3', mimeType: 'image/jpeg' });
  const [log, ...more] = await intakeLogsOf('cyd');
  assert.equal(more.length, 0);
  assert.equal(log!.code, 'BOT_ERR_EGRESS_RESPONSE_TOO_LARGE');
  assert.deepEqual(await storedFiles(), filesBefore, 'nothing stored');
});

test('an error status from the platform, or a file the channel cannot locate, leaves the attachment without a url, each logged with its code', async () => {
  platform.located.set('file-4', `${platform.origin}/files/gone.jpg?token=${URL_TOKEN}`);
  const [gone] = await photoFrom('dan', 'file-4');
  assert.equal(gone!.url, undefined);
  assert.deepEqual((await intakeLogsOf('dan')).map((line) => [line.code, line.status]), [['BOT_ERR_ATTACHMENT_DOWNLOAD_FAILED', 404]]);

  // getFile answers 404: the channel's getMessageAttachments() throws.
  const [unknown] = await photoFrom('eve', 'file-unknown');
  assert.deepEqual(unknown, { kind: 'image', platformId: 'file-unknown', mimeType: 'image/jpeg' });
  assert.deepEqual((await intakeLogsOf('eve')).map((line) => line.code), ['BOT_ERR_PLUGIN_THREW']);
});
