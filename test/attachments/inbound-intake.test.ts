import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { inject } from 'light-my-request';
import pino from 'pino';
import type { Dispatcher } from '../../host/dispatch/dispatcher.ts';
import { expectCreated } from '../support/expect-created.ts';
import { startDispatcher } from '../support/greeting-setup.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app.ts';

// The whole way in: a webhook of the photo_probe fixture channel (in its sandbox) stores an
// attachment message holding a platform file id; the dispatcher asks the channel where the file
// is, downloads it under the channel's egress rules, and the workflow (which replies with
// `$string($input.attachments)`) sees the host's own link. The platform is a local listener on the
// source's x-egress origin.
const APP_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/inbound-files', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 96, maxThreads: 1, maxQueue: 100, idleTimeoutMs: 10_000 };
const MAX_RESPONSE_BYTES = 64 * 1024;
const API_KEY = 'platform-api-key-7f3a';
/** In every download URL's query, as Telegram puts its bot token in the path: never stored or logged. */
const URL_TOKEN = 'url-token-19c2';
const ECHO_ATTACHMENTS = `description: Replies with the attachments it sees
defs:
  echo:
    kind: task
    action: send_text_message
    inputs:
      text: '=$string($input.attachments)'
flow:
  - do: echo
`;

interface Reply {
  to: string;
  text: string;
}

/** The platform: `getFile` answers where each file id is, `/files/*` serves the files (bearer token only), `/messages` takes replies. */
class Platform {
  readonly replies: Reply[] = [];
  /** Where `getFile` says each file id is. */
  readonly located = new Map<string, string>();
  /** The bytes at each `/files/<name>`; a missing name answers 404. */
  readonly files = new Map<string, Buffer>();
  readonly fileRequests: { url: string; authorization: string | undefined }[] = [];
  #waiters: (() => void)[] = [];

  private constructor(private readonly server: ReturnType<typeof createServer>) {}

  static async start(): Promise<Platform> {
    const server = createServer();
    const platform = new Platform(server);
    server.on('request', (request, response) => void platform.#handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return platform;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async replyTo(sender: string): Promise<Reply> {
    for (;;) {
      const reply = this.replies.find((candidate) => candidate.to === sender);
      if (reply) return reply;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', this.origin);
    if (url.pathname === '/getFile') {
      const location = this.located.get(url.searchParams.get('file_id') ?? '');
      response.writeHead(location ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(location ? { url: location } : { error: 'no such file' }));
    } else if (url.pathname.startsWith('/files/')) {
      this.fileRequests.push({ url: request.url ?? '', authorization: request.headers.authorization });
      const bytes = this.files.get(url.pathname.slice('/files/'.length));
      if (request.headers.authorization !== `Bearer ${API_KEY}` || url.searchParams.get('token') !== URL_TOKEN) response.writeHead(401).end();
      else if (!bytes) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
    } else if (url.pathname === '/messages') {
      this.replies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reply);
      for (const wake of this.#waiters.splice(0)) wake();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } else {
      response.writeHead(404).end();
    }
  }
}

const logLines: string[] = [];
let app: TestApp;
let platform: Platform;
let dispatcher: Dispatcher;
let source: { id: string; ref: string };

before(async () => {
  platform = await Platform.start();
  const logger = pino({ level: 'debug' }, new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString('utf8')), done()) }));
  app = await createTestApp({
    channels: { appRoot: APP_ROOT, sandbox: SANDBOX },
    egress: { limits: { timeoutMs: 5_000, maxRequestBytes: 1_024, maxResponseBytes: MAX_RESPONSE_BYTES, maxRedirects: 3 } },
    logger,
  });
  await app.services.channels.load();
  dispatcher = await startDispatcher(app);
  const workflow = await expectCreated(app, '/api/workflows', { name: 'Echo attachments', yaml: ECHO_ATTACHMENTS });
  source = (await expectCreated(app, '/api/sources', {
    name: 'Photo platform',
    channel: 'photo_probe',
    settings: { api_url: platform.origin, api_key: API_KEY },
    defaultWorkflowId: workflow.id,
  })) as { id: string; ref: string };
});

after(async () => {
  await dispatcher?.stop();
  await app?.close();
  await platform?.close();
});

/** Posts one photo message from `sender`; returns the attachments its workflow saw, once its event is recorded done. */
async function photoFrom(sender: string, fileId: string): Promise<Record<string, unknown>[]> {
  const response = await app.request('POST', `/api/webhook/${source.ref}`, { body: { id: `evt-${sender}`, from: sender, photo: fileId, caption: 'look' } });
  assert.equal(response.status, 200, response.text);
  const reply = await platform.replyTo(sender);
  await settled(`evt-${sender}`);
  return JSON.parse(reply.text) as Record<string, unknown>[];
}

/** Waits until the event has left `queued`/`running`: its outcome is recorded just after the reply went out. */
async function settled(eventId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { status } = await app.database.db('inbound_events').where({ event_id: eventId }).first('status');
    if (status !== 'queued' && status !== 'running') return;
    assert.ok(Date.now() < deadline, `event ${eventId} still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The attachment intake's log lines about the event of `sender`. */
async function intakeLogsOf(sender: string): Promise<Record<string, unknown>[]> {
  const { id } = await app.database.db('inbound_events').where({ event_id: `evt-${sender}` }).first('id');
  return logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.component === 'attachments' && line.inboundEventId === id);
}

async function storedFiles(): Promise<string[]> {
  return readdir(path.join(app.attachmentsDir, source.id)).catch(() => []);
}

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
