import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { Dispatcher } from '../../host/dispatch/dispatcher.ts';
import type { ServiceOptions } from '../../host/services.ts';
import { expectCreated } from './expect-created.ts';
import { startDispatcher } from './greeting-setup.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// The whole way in for the files subscribers send: a webhook of the photo_probe fixture channel
// (in its sandbox) stores an attachment message holding a platform file id; the dispatcher asks
// the channel where the file is, downloads it under the channel's egress rules, and the workflow
// (which replies with `$string($input.attachments)`) sees the host's own link. The platform is a
// local listener on the source's x-egress origin.
const APP_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/inbound-files', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 96, maxThreads: 1, maxQueue: 100, idleTimeoutMs: 10_000 };
export const PHOTO_API_KEY = 'platform-api-key-7f3a';
/** In every download URL's query, as Telegram puts its bot token in the path: never stored or logged. */
export const PHOTO_URL_TOKEN = 'url-token-19c2';
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

export interface Reply {
  to: string;
  text: string;
}

/** The platform: `getFile` answers where each file id is, `/files/*` serves the files (bearer token only), `/messages` takes replies. */
export class PhotoPlatform {
  readonly replies: Reply[] = [];
  /** Where `getFile` says each file id is. */
  readonly located = new Map<string, string>();
  /** The bytes at each `/files/<name>`; a missing name answers 404. */
  readonly files = new Map<string, Buffer>();
  readonly fileRequests: { url: string; authorization: string | undefined }[] = [];
  #waiters: (() => void)[] = [];

  private constructor(private readonly server: ReturnType<typeof createServer>) {}

  static async start(): Promise<PhotoPlatform> {
    const server = createServer();
    const platform = new PhotoPlatform(server);
    server.on('request', (request, response) => void platform.#handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return platform;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Serves `bytes` as the file of `fileId` (at `/files/<fileId>.jpg`, the token in its query). */
  serve(fileId: string, bytes: Buffer): void {
    this.files.set(`${fileId}.jpg`, bytes);
    this.located.set(fileId, `${this.origin}/files/${fileId}.jpg?token=${PHOTO_URL_TOKEN}`);
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
      if (request.headers.authorization !== `Bearer ${PHOTO_API_KEY}` || url.searchParams.get('token') !== PHOTO_URL_TOKEN) response.writeHead(401).end();
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

/** A host with the photo_probe channel, a running dispatcher, and one source on a PhotoPlatform whose workflow echoes the attachments. */
export interface PhotoHost {
  app: TestApp;
  platform: PhotoPlatform;
  source: { id: string; ref: string };
  /** Every line the host logged, as written. */
  logLines: string[];
  /** Posts one photo message from `sender` (event id `evt-<sender>`); the attachments its workflow saw, once its event is recorded done. */
  photoFrom(sender: string, fileId: string): Promise<Record<string, unknown>[]>;
  /** Waits until the event has left `queued`/`running`: its outcome is recorded just after the reply went out. */
  settled(eventId: string): Promise<void>;
  /** The attachment intake's log lines about the event of `sender`. */
  intakeLogsOf(sender: string): Promise<Record<string, unknown>[]>;
  /** The names in the source's attachment folder. */
  storedFiles(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startPhotoHost(options: { maxResponseBytes: number; inboundFiles?: ServiceOptions['inboundFiles'] }): Promise<PhotoHost> {
  const platform = await PhotoPlatform.start();
  const logLines: string[] = [];
  const logger = pino({ level: 'debug' }, new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString('utf8')), done()) }));
  let app: TestApp | undefined;
  let dispatcher: Dispatcher | undefined;
  const close = async () => {
    await dispatcher?.stop();
    await app?.close();
    await platform.close();
  };
  try {
    app = await createTestApp({
      channels: { appRoot: APP_ROOT, sandbox: SANDBOX },
      egress: { limits: { timeoutMs: 5_000, maxRequestBytes: 1_024, maxResponseBytes: options.maxResponseBytes, maxRedirects: 3 } },
      ...(options.inboundFiles ? { inboundFiles: options.inboundFiles } : {}),
      logger,
    });
    await app.services.channels.load();
    dispatcher = await startDispatcher(app);
    const workflow = await expectCreated(app, '/api/workflows', { name: 'Echo attachments', yaml: ECHO_ATTACHMENTS });
    const source = (await expectCreated(app, '/api/sources', {
      name: 'Photo platform',
      channel: 'photo_probe',
      settings: { api_url: platform.origin, api_key: PHOTO_API_KEY },
      defaultWorkflowId: workflow.id,
    })) as { id: string; ref: string };
    const host: TestApp = app;
    const settled = async (eventId: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { status } = await host.database.db('inbound_events').where({ event_id: eventId }).first('status');
        if (status !== 'queued' && status !== 'running') return;
        assert.ok(Date.now() < deadline, `event ${eventId} still ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    return {
      app,
      platform,
      source,
      logLines,
      settled,
      async photoFrom(sender, fileId) {
        const response = await host.request('POST', `/api/webhook/${source.ref}`, { body: { id: `evt-${sender}`, from: sender, photo: fileId, caption: 'look' } });
        assert.equal(response.status, 200, response.text);
        const reply = await platform.replyTo(sender);
        await settled(`evt-${sender}`);
        return JSON.parse(reply.text) as Record<string, unknown>[];
      },
      async intakeLogsOf(sender) {
        const { id } = await host.database.db('inbound_events').where({ event_id: `evt-${sender}` }).first('id');
        return logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.component === 'attachments' && line.inboundEventId === id);
      },
      storedFiles: () => readdir(path.join(host.attachmentsDir, source.id)).catch(() => []),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
