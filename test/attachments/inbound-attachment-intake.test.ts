import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EgressRequest, InboundAttachment, InboundAttachmentRef, PlainInboundEvent } from '@bot-ai/api';
import { inboundAttachmentName } from '../../host/attachments/inbound-attachment-name.ts';
import { InboundAttachmentIntake, type InboundAttachmentIntakeDeps } from '../../host/attachments/inbound-attachment-intake.ts';
import { InboundFileQuota } from '../../host/attachments/inbound-file-quota.ts';
import { matchAttachmentRefs } from '../../host/attachments/match-attachment-refs.ts';

// The intake's own rules, with stand-ins for the channel, the egress and the store; the whole
// way (real channel, egress, database) is in inbound-intake.test.ts.
const EVENT_ID = '0b9e5c8e-7d0a-4f7e-9a4e-2f1c3b5d6e7f';
const SOURCE = { id: '5d1b8f0e-2c3a-4b6d-8e9f-0a1b2c3d4e5f', ref: 'src', settings: {}, active: true, channel: 'files' };

function eventWith(attachments: InboundAttachment[]): PlainInboundEvent {
  return { kind: 'message', channelName: 'files', rawEvent: {}, channelAttributes: {}, occurredAt: '2026-01-01T00:00:00.000Z', eventId: 'e1', senderForeignId: 'u1', message: { type: 'attachment', data: { attachments } } };
}

function intakeWith(overrides: Partial<InboundAttachmentIntakeDeps>): { intake: InboundAttachmentIntake; fetched: EgressRequest[]; saved: string[] } {
  const fetched: EgressRequest[] = [];
  const saved: string[] = [];
  const intake = new InboundAttachmentIntake({
    kindOf: () => 'http',
    locate: async () => [],
    fetch: async (_channel, request) => (fetched.push(request), { status: 200, statusText: 'OK', headers: [], body: new Uint8Array([1]), url: request.url, redirected: false }),
    store: { has: async () => false, save: async (_sourceId, name) => void saved.push(name) },
    quota: new InboundFileQuota({ maxBytes: 1024 * 1024, count: async () => 0 }),
    publicUrl: async (_channel, _sourceId, name) => `https://host.test/${name}`,
    logger: { warn: () => {} },
    ...overrides,
  });
  return { intake, fetched, saved };
}

const attachmentsOf = (event: PlainInboundEvent) => (event.message as { data: { attachments: InboundAttachment[] } }).data.attachments;

test('the stored name is the event id and position, with only an extension kept from a name, the URL or the media type', () => {
  const name = (names: (string | undefined)[], url?: string, mimeTypes: (string | undefined)[] = []) => inboundAttachmentName(EVENT_ID, 0, { names, url, mimeTypes });
  assert.equal(name(['../../etc/Holiday.JPG']), `${EVENT_ID}-1.jpg`);
  assert.equal(name([undefined], 'https://files.example/bot123:abc/photos/file_7.png?token=x'), `${EVENT_ID}-1.png`);
  assert.equal(name(['notes'], 'https://files.example/get', ['application/pdf; charset=binary']), `${EVENT_ID}-1.pdf`);
  assert.equal(name(['a.<script>'], undefined, ['application/x-unknown']), `${EVENT_ID}-1`);
  assert.equal(inboundAttachmentName(EVENT_ID, 2, { names: [], url: undefined, mimeTypes: [] }), `${EVENT_ID}-3`);
});

test("references match the files one to one, or, as the SDK's default answers, the files that have a url; any other count matches none", () => {
  const ref = (url: string): InboundAttachmentRef => ({ url });
  const files: InboundAttachment[] = [{ kind: 'image', platformId: 'p1' }, { kind: 'file', url: 'https://files.example/2' }];
  assert.deepEqual(matchAttachmentRefs(files, [ref('https://a/1'), ref('https://a/2')]), [ref('https://a/1'), ref('https://a/2')]);
  assert.deepEqual(matchAttachmentRefs(files, [ref('https://files.example/2')]), [undefined, ref('https://files.example/2')]);
  assert.deepEqual(matchAttachmentRefs(files, [ref('https://a/1'), ref('https://a/2'), ref('https://a/3')]), [undefined, undefined]);
});

test('a file an earlier attempt of the event stored is linked again without downloading it', async () => {
  const { intake, fetched, saved } = intakeWith({ locate: async () => [{ url: 'https://files.example/f.jpg' }], store: { has: async () => true, save: async () => assert.fail('saved again') } });
  const [file] = attachmentsOf(await intake.intake(eventWith([{ kind: 'image', platformId: 'p1' }]), { inboundEventId: EVENT_ID, source: SOURCE }));
  assert.deepEqual(file, { kind: 'image', platformId: 'p1', url: `https://host.test/${EVENT_ID}-1.jpg` });
  assert.equal(fetched.length, 0);
  assert.equal(saved.length, 0);
});

test("the download is the host's GET with the channel's headers (lower-cased) for the event's source, and the platform's url never reaches the workflow", async () => {
  const { intake, fetched } = intakeWith({ locate: async () => [{ url: 'https://files.example/f?token=t', headers: { Authorization: 'Bearer k' }, name: 'scan.pdf', mimeType: 'application/pdf' }] });
  const [file] = attachmentsOf(await intake.intake(eventWith([{ kind: 'file', url: 'https://platform.example/f' }]), { inboundEventId: EVENT_ID, source: SOURCE }));
  assert.deepEqual(fetched, [{ url: 'https://files.example/f?token=t', method: 'GET', headers: [['authorization', 'Bearer k']], sourceId: SOURCE.id, redirect: 'follow' }]);
  assert.deepEqual(file, { kind: 'file', name: 'scan.pdf', mimeType: 'application/pdf', url: `https://host.test/${EVENT_ID}-1.pdf` });
});

test("a WebSocket channel's message, and a message that is not an attachment, pass unchanged, without asking the channel", async () => {
  const { intake } = intakeWith({ kindOf: () => 'websocket', locate: async () => assert.fail('asked') });
  const event = eventWith([{ kind: 'file', url: 'https://elsewhere.example/f' }]);
  assert.equal(await intake.intake(event, { inboundEventId: EVENT_ID, source: SOURCE }), event);
  const text: PlainInboundEvent = { ...event, message: { type: 'text', data: { text: 'hi' } } };
  assert.equal(await intakeWith({ locate: async () => assert.fail('asked') }).intake.intake(text, { inboundEventId: EVENT_ID, source: SOURCE }), text);
});
