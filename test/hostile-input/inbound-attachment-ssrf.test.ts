/**
 * A hostile channel's getMessageAttachments() names where the HOST downloads a file: the intake
 * must give it nothing its own fetch would not get. Through the real ChannelEgress and
 * EgressClient (the host's own port set, names resolved to loopback): a literal loopback URL, a
 * declared host resolving to loopback, the host's own port behind an x-egress origin, a redirect
 * from an allowed origin to a metadata address, and headers that try to change the virtual host
 * or the connection. Each refused file reaches the workflow without a url, logged with its code.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { InboundAttachment, InboundAttachmentRef, PlainInboundEvent } from '@bot-ai/api';
import { InboundAttachmentIntake } from '../../host/attachments/inbound-attachment-intake.ts';
import { InboundFileQuota } from '../../host/attachments/inbound-file-quota.ts';
import { ChannelEgress } from '../../host/egress/channel-egress.ts';
import { resolverFor, startClient, startListener, type Listener } from '../egress/egress-fixtures.ts';

const EVENT_ID = '0b9e5c8e-7d0a-4f7e-9a4e-2f1c3b5d6e7f';
const SOURCE_ID = '5d1b8f0e-2c3a-4b6d-8e9f-0a1b2c3d4e5f';
const SCHEMA = { properties: { api_url: { type: 'string', 'x-egress': true }, self_url: { type: 'string', 'x-egress': true } } };

interface Taken {
  attachment: InboundAttachment;
  warnings: Record<string, unknown>[];
  saved: number;
}

async function takeIn(t: TestContext, ref: InboundAttachmentRef, setup: { platform: Listener; self: Listener }): Promise<Taken> {
  const client = startClient(t, {
    resolve: resolverFor({ 'files.platform.example': ['127.0.0.1'] }),
    self: { port: () => setup.self.port, listenHost: '127.0.0.1' },
  });
  const egress = new ChannelEgress({
    client,
    channels: { get: (name) => (name === 'hostile' ? { egress: ['files.platform.example'], description: { settingsJsonSchema: SCHEMA } } : undefined) },
    sources: { get: async (id) => (id === SOURCE_ID ? { channel: 'hostile', settings: { api_url: setup.platform.origin, self_url: setup.self.origin }, egress_grants: ['api_url', 'self_url'] } : undefined) },
    countRefused: () => {},
    logger: { warn: () => {} },
  });
  const warnings: Record<string, unknown>[] = [];
  let saved = 0;
  const intake = new InboundAttachmentIntake({
    kindOf: () => 'http',
    locate: async () => [ref],
    fetch: (channel, request) => egress.performFor(channel, request),
    store: { has: async () => false, save: async () => void (saved += 1) },
    quota: new InboundFileQuota({ maxBytes: 1024 * 1024, count: async () => 0 }),
    publicUrl: async (_channel, _sourceId, name) => `https://host.test/${name}`,
    logger: { warn: (fields) => void warnings.push(fields) },
  });
  const event: PlainInboundEvent = { kind: 'message', channelName: 'hostile', rawEvent: {}, channelAttributes: {}, occurredAt: '2026-01-01T00:00:00.000Z', eventId: 'e1', senderForeignId: 'u1', message: { type: 'attachment', data: { attachments: [{ kind: 'file', platformId: 'p1' }] } } };
  const source = { id: SOURCE_ID, ref: 'src', settings: {}, active: true, channel: 'hostile' };
  const taken = (await intake.intake(event, { inboundEventId: EVENT_ID, source })).message as { data: { attachments: InboundAttachment[] } };
  return { attachment: taken.data.attachments[0]!, warnings, saved };
}

async function listeners(t: TestContext): Promise<{ platform: Listener; self: Listener }> {
  const ok = (_request: unknown, res: import('node:http').ServerResponse) => res.writeHead(200).end('file bytes');
  return { platform: await startListener(t, ok), self: await startListener(t, ok) };
}

function assertRefused(taken: Taken, code: string, ...untouched: Listener[]): void {
  assert.equal(taken.attachment.url, undefined);
  assert.equal(taken.saved, 0);
  assert.equal(taken.warnings[0]?.code, code, JSON.stringify(taken.warnings));
  for (const listener of untouched) assert.deepEqual(listener.received, []);
}

test('a literal loopback URL (the admin port, say) that is no allowed origin is refused', async (t) => {
  const setup = await listeners(t);
  const other = await startListener(t, (_request, res) => res.writeHead(200).end('admin'));
  assertRefused(await takeIn(t, { url: `${other.origin}/api/sources` }, setup), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED', other);
});

test('a declared host that resolves to loopback is refused', async (t) => {
  const setup = await listeners(t);
  assertRefused(await takeIn(t, { url: `http://files.platform.example:${setup.platform.port}/f` }, setup), 'BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC', setup.platform);
});

test("the host's own port is refused even behind an operator's x-egress origin", async (t) => {
  const setup = await listeners(t);
  assertRefused(await takeIn(t, { url: `${setup.self.origin}/api/sources` }, setup), 'BOT_ERR_EGRESS_HOST_SELF', setup.self);
});

test('a redirect from an allowed origin to a metadata address is refused at the hop', async (t) => {
  const setup = await listeners(t);
  const redirecting = await startListener(t, (_request, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
  const taken = await takeIn(t, { url: `${redirecting.origin}/f` }, { ...setup, platform: redirecting });
  assertRefused(taken, 'BOT_ERR_EGRESS_REDIRECT_REFUSED');
  assert.equal(redirecting.received.length, 1);
});

test('headers that would change the virtual host or the connection are not sent; the file is stored', async (t) => {
  const setup = await listeners(t);
  const taken = await takeIn(t, { url: `${setup.platform.origin}/f`, headers: { Host: 'admin.internal', Connection: 'upgrade', Upgrade: 'websocket', 'Transfer-Encoding': 'chunked', authorization: 'Bearer k' } }, setup);
  assert.match(taken.attachment.url ?? '', /^https:\/\/host\.test\//);
  assert.equal(taken.saved, 1);
  const [received] = setup.platform.received;
  assert.equal(received!.headers.host, `127.0.0.1:${setup.platform.port}`);
  assert.equal(received!.headers.upgrade, undefined);
  assert.notEqual(received!.headers['transfer-encoding'], 'chunked');
  assert.equal(received!.headers.authorization, 'Bearer k');
});
