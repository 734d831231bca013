import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EgressRequest, InboundAttachment, PlainInboundEvent } from '@bot-ai/api';
import { inject } from 'light-my-request';
import pino from 'pino';
import { AttachmentStore } from '../../host/attachments/attachment-store.ts';
import { InboundAttachmentIntake } from '../../host/attachments/inbound-attachment-intake.ts';
import { inboundAttachmentName, isInboundAttachmentName } from '../../host/attachments/inbound-attachment-name.ts';
import { InboundFileQuota, inboundBytesIn } from '../../host/attachments/inbound-file-quota.ts';
import { InboundFileSweeper } from '../../host/attachments/inbound-file-sweeper.ts';
import { startPhotoHost, type PhotoHost } from '../support/photo-platform.ts';
import { TEST_PUBLIC_URL } from '../support/test-app.ts';
import { TestClock } from '../support/test-clock.ts';

// The quota (BOT_INBOUND_FILES_MAX_MB_PER_SOURCE) and the retention (BOT_INBOUND_FILES_RETENTION_DAYS)
// of the files subscribers send: first with a real store and quota behind the intake and stand-ins
// for the channel and the platform, then the whole way, through the fixture channel, the dispatcher
// and PostgreSQL.
const DAY_MS = 24 * 60 * 60_000;
const SOURCE = { id: '5d1b8f0e-2c3a-4b6d-8e9f-0a1b2c3d4e5f', ref: 'src', settings: {}, active: true, channel: 'files' };
const OTHER_SOURCE_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const silent = pino({ level: 'silent' });

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bot-inbound-limits-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** A fresh store under the test's folder. */
async function freshStore(): Promise<{ store: AttachmentStore; folder: (sourceId?: string) => string }> {
  const root = await mkdtemp(path.join(dir, 'store-'));
  return { store: new AttachmentStore(root), folder: (sourceId = SOURCE.id) => path.join(root, sourceId) };
}

/** Writes a file straight into a source's folder (as an operator, or another instance, would), `ageMs` old. */
async function putFile(folder: string, name: string, bytes: number, ageMs = 0): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), randomBytes(bytes));
  const when = new Date(Date.now() - ageMs);
  await utimes(path.join(folder, name), when, when);
}

/** The intake as services.ts builds it, with a real store and quota; the platform serves `sizes[i]` bytes for file i. */
function intakeOn(store: AttachmentStore, quota: InboundFileQuota) {
  const fetched: EgressRequest[] = [];
  const warnings: Record<string, unknown>[] = [];
  const intake = new InboundAttachmentIntake({
    kindOf: () => 'http',
    locate: async (_channel, event) => attachmentsOf(event).map((file) => ({ url: `https://files.example/${file.platformId}.jpg` })),
    fetch: async (_channel, request) => {
      fetched.push(request);
      const size = Number(/\/(\d+)b-/.exec(request.url)?.[1]);
      return { status: 200, statusText: 'OK', headers: [], body: new Uint8Array(randomBytes(size)), url: request.url, redirected: false };
    },
    store,
    quota,
    publicUrl: async (_channel, _sourceId, name) => `https://host.test/${name}`,
    logger: { warn: (fields) => void warnings.push(fields) },
  });
  /** One message of files of these sizes; the attachments its workflow sees. */
  const message = async (...sizes: number[]) => {
    const files: InboundAttachment[] = sizes.map((size) => ({ kind: 'image', platformId: `${size}b-${randomUUID()}` }));
    const event: PlainInboundEvent = { kind: 'message', channelName: 'files', rawEvent: {}, channelAttributes: {}, occurredAt: '2026-01-01T00:00:00.000Z', eventId: randomUUID(), senderForeignId: 'u1', message: { type: 'attachment', data: { attachments: files } } };
    return attachmentsOf(await intake.intake(event, { inboundEventId: randomUUID(), source: SOURCE }));
  };
  return { message, fetched, warnings };
}

const attachmentsOf = (event: PlainInboundEvent) => (event.message as { data: { attachments: InboundAttachment[] } }).data.attachments;
const linked = (attachments: InboundAttachment[]) => attachments.map((file) => file.url !== undefined);

async function inboundBytesOnDisk(folder: string): Promise<number> {
  let total = 0;
  for (const name of (await readdir(folder)).filter(isInboundAttachmentName)) total += (await stat(path.join(folder, name))).size;
  return total;
}

test('only the names the intake gives count as inbound files', () => {
  const id = randomUUID();
  assert.ok(isInboundAttachmentName(inboundAttachmentName(id, 0, { names: ['Holiday.JPG'], url: undefined, mimeTypes: [] })));
  assert.ok(isInboundAttachmentName(inboundAttachmentName(id, 9, { names: [], url: undefined, mimeTypes: [] })));
  for (const name of ['invoice.pdf', `${id}.pdf`, `${id}-0.jpg`, `${id}-1.JPG`, `x${id}-1.jpg`, `${id}-1.jpg.exe.toolongextension`, `.upload-${id}-1`]) {
    assert.equal(isInboundAttachmentName(name), false, name);
  }
});

describe('the quota of inbound files', () => {
  test('a file that would take the source past it is not kept, none is downloaded once it is full, and each message logs it once', async () => {
    const { store, folder } = await freshStore();
    await putFile(folder(), 'price-list.pdf', 50_000); // an operator's file: it does not count
    const { message, fetched, warnings } = intakeOn(store, new InboundFileQuota({ maxBytes: 10_000, count: inboundBytesIn(store) }));

    assert.deepEqual(linked(await message(4_000, 4_000, 4_000)), [true, true, false], 'the third would make 12,000 bytes');
    assert.deepEqual(warnings.map(({ code, attachments, maxBytes }) => ({ code, attachments, maxBytes })), [{ code: 'BOT_ERR_ATTACHMENT_QUOTA_EXCEEDED', attachments: [2], maxBytes: 10_000 }]);
    assert.deepEqual(linked(await message(2_000)), [true], 'a file that fits, up to the quota exactly');
    assert.equal(fetched.length, 4);

    warnings.length = 0;
    const full = await message(1, 1, 1);
    assert.deepEqual(linked(full), [false, false, false]);
    assert.deepEqual(full[0], { kind: 'image', platformId: full[0]!.platformId }, 'the attachment goes on as other failures leave it');
    assert.equal(fetched.length, 4, 'nothing downloaded for a full source');
    assert.equal(warnings.length, 1, 'one line for the message, not one per file');
    assert.deepEqual(warnings[0]!.attachments, [0, 1, 2]);

    assert.equal(await inboundBytesOnDisk(folder()), 10_000);
    assert.equal((await stat(path.join(folder(), 'price-list.pdf'))).size, 50_000, "the operator's file is untouched");
  });

  test("the count is read from the source's folder once, not at every file, and files already there count", async () => {
    const { store, folder } = await freshStore();
    await putFile(folder(), `${randomUUID()}-1.jpg`, 7_000); // taken in before a restart
    let listings = 0;
    const count = inboundBytesIn(store);
    const quota = new InboundFileQuota({ maxBytes: 10_000, count: (sourceId) => ((listings += 1), count(sourceId)) });
    const { message } = intakeOn(store, quota);

    assert.deepEqual(linked(await message(2_000, 2_000)), [true, false]);
    assert.deepEqual(linked(await message(500, 500, 500)), [true, true, false]);
    assert.equal(listings, 1);
    assert.equal(quota.bytesOf(SOURCE.id), 10_000);
  });

  test('messages of one source taken in at once never go past it together', async () => {
    const { store, folder } = await freshStore();
    const { message } = intakeOn(store, new InboundFileQuota({ maxBytes: 10_000, count: inboundBytesIn(store) }));
    const results = await Promise.all(Array.from({ length: 8 }, () => message(3_000)));
    assert.equal(results.filter(([file]) => file!.url !== undefined).length, 3);
    assert.equal(await inboundBytesOnDisk(folder()), 9_000);
  });

  test('a source at its quota does not stop another one', async () => {
    const { store, folder } = await freshStore();
    await putFile(folder(), `${randomUUID()}-1.jpg`, 10_000);
    const quota = new InboundFileQuota({ maxBytes: 10_000, count: inboundBytesIn(store) });
    assert.equal(await quota.isFull(SOURCE.id), true);
    assert.equal(await quota.reserve(OTHER_SOURCE_ID, 10_000), true);
  });
});

describe('the retention sweep', () => {
  const sweeperOn = (store: AttachmentStore, quota: InboundFileQuota, options: { now?: () => Date; intervalMs?: number } = {}) =>
    new InboundFileSweeper({ store, quota, retentionMs: 30 * DAY_MS, intervalMs: options.intervalMs ?? 60_000, now: options.now ?? (() => new Date()), logger: silent });

  test('deletes the inbound files older than the retention, of every source, and nothing else', async () => {
    const { store, folder } = await freshStore();
    const [old, young, otherOld] = [`${randomUUID()}-1.jpg`, `${randomUUID()}-2`, `${randomUUID()}-1.pdf`];
    await putFile(folder(), old, 1_000, 31 * DAY_MS);
    await putFile(folder(), young, 2_000, 29 * DAY_MS);
    await putFile(folder(), 'menu.pdf', 3_000, 400 * DAY_MS); // put there for sending: stays whatever its age
    await putFile(folder(), `.upload-${randomUUID()}`, 10, 31 * DAY_MS); // a write in progress
    await putFile(folder(OTHER_SOURCE_ID), otherOld, 4_000, 45 * DAY_MS);
    await mkdir(path.join(folder(), `${randomUUID()}-3.jpg`)); // not a regular file

    const clock = new TestClock();
    const sweeper = sweeperOn(store, new InboundFileQuota({ maxBytes: 10_000, count: inboundBytesIn(store) }), { now: clock.now });
    assert.deepEqual(await sweeper.sweepOnce(), { deleted: 2, freedBytes: 5_000, sources: 2 });
    assert.deepEqual((await readdir(folder())).filter((name) => !name.startsWith('.upload-') && !name.endsWith('-3.jpg')).sort(), ['menu.pdf', young].sort());
    assert.deepEqual(await readdir(folder(OTHER_SOURCE_ID)), []);

    clock.advance(2 * DAY_MS);
    assert.deepEqual(await sweeper.sweepOnce(), { deleted: 1, freedBytes: 2_000, sources: 2 }, 'the younger one, once it is past the retention too');
    assert.ok((await readdir(folder())).includes('menu.pdf'));
    assert.equal((await readdir(folder())).filter((name) => name.startsWith('.upload-')).length, 1);
  });

  test('gives the room back to the quota, and recounts what other instances stored in a shared folder', async () => {
    const { store, folder } = await freshStore();
    const quota = new InboundFileQuota({ maxBytes: 10_000, count: inboundBytesIn(store) });
    const { message } = intakeOn(store, quota);
    const sweeper = sweeperOn(store, quota);

    assert.deepEqual(linked(await message(6_000, 6_000)), [true, false]);
    for (const name of await readdir(folder())) await utimes(path.join(folder(), name), new Date(Date.now() - 31 * DAY_MS), new Date(Date.now() - 31 * DAY_MS));
    await sweeper.sweepOnce();
    assert.equal(quota.bytesOf(SOURCE.id), 0);
    assert.deepEqual(linked(await message(6_000)), [true], 'room again once the old file is gone');

    await putFile(folder(), `${randomUUID()}-1.jpg`, 3_000); // another instance's, sharing the folder
    await sweeper.sweepOnce();
    assert.equal(quota.bytesOf(SOURCE.id), 9_000);
    assert.deepEqual(linked(await message(2_000)), [false]);
  });

  test('runs on its interval until closed', async () => {
    const { store, folder } = await freshStore();
    const sweeper = sweeperOn(store, new InboundFileQuota({ maxBytes: 10_000, count: inboundBytesIn(store) }), { intervalMs: 20 });
    const first = `${randomUUID()}-1.jpg`;
    await putFile(folder(), first, 100, 31 * DAY_MS);
    sweeper.start();
    const deadline = Date.now() + 5_000;
    while ((await readdir(folder())).includes(first)) {
      assert.ok(Date.now() < deadline, 'the timer never swept');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await sweeper.close();
    const second = `${randomUUID()}-1.jpg`;
    await putFile(folder(), second, 100, 31 * DAY_MS);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.ok((await readdir(folder())).includes(second), 'no sweep after close');
  });
});

describe('the whole way in', () => {
  const QUOTA_BYTES = 48 * 1024;
  let host: PhotoHost;

  before(async () => {
    host = await startPhotoHost({ maxResponseBytes: 64 * 1024, inboundFiles: { maxBytesPerSource: QUOTA_BYTES, retentionMs: DAY_MS } });
  });
  after(() => host?.close());

  test("past the source's quota a photo reaches the workflow without a url, logged once; the sweep of old files makes room again", async () => {
    host.platform.serve('q-1', randomBytes(30_000));
    host.platform.serve('q-2', randomBytes(30_000));
    host.platform.serve('q-3', randomBytes(30_000));

    const [kept] = await host.photoFrom('quinn', 'q-1');
    const link = String(kept!.url);
    assert.ok(link.startsWith(`${TEST_PUBLIC_URL}/api/webhook/${host.source.ref}/download/`), link);
    const stored = await host.storedFiles();
    assert.equal(stored.length, 1);

    const [refused] = await host.photoFrom('rita', 'q-2');
    assert.deepEqual(refused, { kind: 'image', platformId: 'q-2', mimeType: 'image/jpeg' });
    assert.deepEqual((await host.intakeLogsOf('rita')).map(({ code, attachments, maxBytes }) => ({ code, attachments, maxBytes })), [{ code: 'BOT_ERR_ATTACHMENT_QUOTA_EXCEEDED', attachments: [0], maxBytes: QUOTA_BYTES }]);
    const [event] = await host.app.database.db('inbound_events').where({ event_id: 'evt-rita' }).select('status', 'attempts');
    assert.deepEqual(event, { status: 'done', attempts: 1 }, 'not retried for the quota');
    assert.deepEqual(await host.storedFiles(), stored, 'nothing more stored');

    const file = path.join(host.app.attachmentsDir, host.source.id, stored[0]!);
    await utimes(file, new Date(Date.now() - 2 * DAY_MS), new Date(Date.now() - 2 * DAY_MS));
    assert.deepEqual(await host.app.services.inboundFileSweeper.sweepOnce(), { deleted: 1, freedBytes: 30_000, sources: 1 });
    const gone = await inject(host.app.app.callback(), { method: 'GET', url: link.slice(TEST_PUBLIC_URL.length) });
    assert.equal(gone.statusCode, 404, 'the link of a swept file finds nothing');

    const [again] = await host.photoFrom('sam', 'q-3');
    assert.ok(String(again!.url).startsWith(TEST_PUBLIC_URL), 'room again after the sweep');
    assert.deepEqual(await host.intakeLogsOf('sam'), []);
  });
});
