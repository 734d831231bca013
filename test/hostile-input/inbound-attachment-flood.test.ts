/**
 * One inbound message that lists a thousand files: a hostile channel decodes a webhook so, and
 * names a download for each (on a host it declares), or a platform delivers such a message.
 * Every file the intake takes in costs the event's dispatch slot up to BOT_EGRESS_TIMEOUT_MS and
 * the attachment store up to BOT_EGRESS_MAX_RESPONSE_BYTES, for good; without a bound, one event
 * would hold its slot for hours and fill the disk. The intake takes in the first
 * MAX_INBOUND_FILES_PER_MESSAGE files; the others reach the workflow without a url, logged once.
 * Such messages in a loop stop at the source's quota of inbound files (BOT_INBOUND_FILES_MAX_MB_PER_SOURCE).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { EgressRequest, InboundAttachment, PlainInboundEvent } from '@bot-ai/api';
import { InboundAttachmentIntake, MAX_INBOUND_FILES_PER_MESSAGE } from '../../host/attachments/inbound-attachment-intake.ts';
import { InboundFileQuota, inboundBytesIn } from '../../host/attachments/inbound-file-quota.ts';
import { AttachmentStore } from '../../host/attachments/attachment-store.ts';

const EVENT_ID = '0b9e5c8e-7d0a-4f7e-9a4e-2f1c3b5d6e7f';
const SOURCE = { id: '5d1b8f0e-2c3a-4b6d-8e9f-0a1b2c3d4e5f', ref: 'src', settings: {}, active: true, channel: 'hostile' };
const FILES = 1_000;

test('a message listing a thousand files costs at most MAX_INBOUND_FILES_PER_MESSAGE downloads; the rest go on without a url, in one log line', async () => {
  const files: InboundAttachment[] = Array.from({ length: FILES }, (_, index) => ({ kind: 'file', platformId: `p${index}` }));
  const event: PlainInboundEvent = { kind: 'message', channelName: 'hostile', rawEvent: {}, channelAttributes: {}, occurredAt: '2026-01-01T00:00:00.000Z', eventId: 'e1', senderForeignId: 'u1', message: { type: 'attachment', data: { attachments: files } } };
  const fetched: EgressRequest[] = [];
  const saved: string[] = [];
  const warnings: Record<string, unknown>[] = [];
  const intake = new InboundAttachmentIntake({
    kindOf: () => 'http',
    locate: async () => files.map((file) => ({ url: `https://files.hostile.example/${file.platformId}.bin` })),
    fetch: async (_channel, request) => (fetched.push(request), { status: 200, statusText: 'OK', headers: [], body: new Uint8Array(1), url: request.url, redirected: false }),
    store: { has: async () => false, save: async (_sourceId, name) => void saved.push(name) },
    quota: new InboundFileQuota({ maxBytes: 1024 * 1024, count: async () => 0 }),
    publicUrl: async (_channel, _sourceId, name) => `https://host.test/${name}`,
    logger: { warn: (fields) => void warnings.push(fields) },
  });

  const taken = (await intake.intake(event, { inboundEventId: EVENT_ID, source: SOURCE })).message as { data: { attachments: InboundAttachment[] } };

  assert.ok(MAX_INBOUND_FILES_PER_MESSAGE >= 1 && MAX_INBOUND_FILES_PER_MESSAGE <= 50, `a bound of ${MAX_INBOUND_FILES_PER_MESSAGE}`);
  assert.equal(fetched.length, MAX_INBOUND_FILES_PER_MESSAGE);
  assert.equal(saved.length, MAX_INBOUND_FILES_PER_MESSAGE);
  assert.equal(taken.data.attachments.length, FILES, 'every file is still described to the workflow');
  assert.equal(taken.data.attachments.filter((file) => file.url !== undefined).length, MAX_INBOUND_FILES_PER_MESSAGE);
  assert.deepEqual(taken.data.attachments.at(-1), { kind: 'file', platformId: `p${FILES - 1}` });
  assert.equal(warnings.length, 1, 'one line for the files left out, not one per file');
  assert.equal(warnings[0]!.code, 'BOT_ERR_ATTACHMENT_TOO_MANY');
});

test("messages of ten large files in a loop fill no more than the source's quota: then nothing more is downloaded or stored, one line a message", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-inbound-flood-'));
  try {
    const store = new AttachmentStore(dir);
    const quota = new InboundFileQuota({ maxBytes: 64 * 1024, count: inboundBytesIn(store) });
    let downloads = 0;
    const warnings: Record<string, unknown>[] = [];
    const intake = new InboundAttachmentIntake({
      kindOf: () => 'http',
      locate: async (_channel, event) => (event.message as { data: { attachments: InboundAttachment[] } }).data.attachments.map((file) => ({ url: `https://files.hostile.example/${file.platformId}.bin` })),
      fetch: async (_channel, request) => (downloads++, { status: 200, statusText: 'OK', headers: [], body: new Uint8Array(4 * 1024), url: request.url, redirected: false }),
      store,
      quota,
      publicUrl: async (_channel, _sourceId, name) => `https://host.test/${name}`,
      logger: { warn: (fields) => void warnings.push(fields) },
    });
    for (let round = 0; round < 20; round++) {
      const files: InboundAttachment[] = Array.from({ length: MAX_INBOUND_FILES_PER_MESSAGE }, (_, index) => ({ kind: 'file', platformId: `r${round}-${index}` }));
      const event: PlainInboundEvent = { kind: 'message', channelName: 'hostile', rawEvent: {}, channelAttributes: {}, occurredAt: '2026-01-01T00:00:00.000Z', eventId: `e${round}`, senderForeignId: 'u1', message: { type: 'attachment', data: { attachments: files } } };
      await intake.intake(event, { inboundEventId: randomUUID(), source: SOURCE });
    }
    const stored = await readdir(path.join(dir, SOURCE.id));
    assert.equal(stored.length, 16, '64 KiB of 4 KiB files');
    assert.equal(downloads, 16, 'a full source costs no download');
    assert.equal(warnings.length, 20 - 1, 'one line for each message the quota cut, none per file');
    assert.ok(warnings.every((fields) => fields.code === 'BOT_ERR_ATTACHMENT_QUOTA_EXCEEDED'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
