import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { rebuildInboundEvent, subscriberCreateDtoSchema, type ChannelSource } from '@bot-ai/api';
import { telegramRetryAfterMs, telegramSettingsSchema } from 'bot-channel-telegram';
import { checkManifestSchema, deliveryFixtureSchema, type CheckManifest, type PlatformAnswer } from '@bot-ai/api/check';
import { createChannel, createUnpacedChannel, decodeOne, deliveryNames, installDirectEgress, readDelivery, readManifest } from './telegram-fixtures.ts';

const manifest = checkManifestSchema.parse(readManifest());

test('every delivery file is in the author kit format', () => {
  for (const name of deliveryNames()) assert.ok(deliveryFixtureSchema.safeParse(readDelivery(name)).success, name);
});

test('the deliveries hold the required set: text, media, a button press, location, noise, a retry and a refused body', () => {
  const messages = deliveryNames().flatMap((name) => (readDelivery(name).expect.events ?? []).map((event) => event.message as { type: string }));
  for (const type of ['text', 'attachment', 'quickReply', 'location']) assert.ok(messages.some((message) => message.type === type), type);
  assert.ok(deliveryNames().filter((name) => readDelivery(name).expect.events?.length === 0).length >= 6, 'noise deliveries');
  assert.ok(deliveryNames().some((name) => readDelivery(name).expect.status === 400), 'a refused body');
});

test('the retry delivery is the very same update as the one it repeats', () => {
  const retries = deliveryNames().filter((name) => readDelivery(name).sameEventsAs !== undefined);
  assert.deepEqual(retries, ['text-message-retry.json']);
  assert.deepEqual(readDelivery('text-message-retry.json').request.body, readDelivery(readDelivery('text-message-retry.json').sameEventsAs!).request.body);
});

test("the manifest's settings are valid settings and the signature is Telegram's secret token header", () => {
  const settings = { ...manifest.settings, api_base_url: 'http://127.0.0.1:1' };
  assert.ok(telegramSettingsSchema.safeParse(settings).success);
  assert.equal(manifest.settings.api_base_url, '{{platform}}');
  assert.deepEqual(manifest.signature, { scheme: 'token', header: 'x-telegram-bot-api-secret-token', setting: 'secret_token' });
  assert.equal(manifest.handshake, undefined);
  assert.ok(deliveryNames().includes(manifest.replyTo));
});

test("the manifest's rate-limit answer is Telegram's, and its wait is what the channel reads from it", () => {
  const { rateLimited } = manifest.platform;
  assert.equal(rateLimited.status, 429);
  assert.equal(telegramRetryAfterMs(rateLimited.body), rateLimited.retryAfterMs);
  assert.equal(rateLimited.retryAfterMs, 7_000);
});

/** A fake Bot API on 127.0.0.1 answering with the manifest's routes; records the methods called. */
async function startPlatform(routes: CheckManifest['platform']['routes']) {
  const calls: string[] = [];
  let next: PlatformAnswer | undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      calls.push(path.split('/').pop()!);
      const route = routes.find((candidate) => candidate.method === req.method && new RegExp(candidate.path).test(path));
      const answer = next ?? route ?? { status: 404, headers: {}, body: { ok: false, error_code: 404, description: 'Not Found' } };
      next = undefined;
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    answerNext: (answer: PlatformAnswer) => (next = answer),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the manifest's fake platform answers every call the channel makes, in a form the channel reads", async (t) => {
  t.after(installDirectEgress());
  const platform = await startPlatform(manifest.platform.routes);
  t.after(() => platform.close());
  const settings = JSON.parse(JSON.stringify(manifest.settings).replaceAll('{{platform}}', platform.url)) as Record<string, unknown>;
  const source: ChannelSource = { id: 'check', ref: 'check', settings, active: true };
  const channel = createUnpacedChannel();
  const event = rebuildInboundEvent(decodeOne(readDelivery(manifest.replyTo).request.body, source).toPlain()).bindSource(source);

  for (const kind of ['image', 'audio', 'video', 'file'] as const) {
    const { mid } = await channel.doSendMessage(event, { type: 'attachment', data: { text: 'A file', attachment: { kind, url: 'https://example.com/a' } } }, { idempotencyKey: kind });
    assert.match(mid, /^\d+$/);
  }
  assert.match((await channel.doSendMessage(event, { type: 'text', data: { text: 'Hi' } }, { idempotencyKey: 't' })).mid, /^\d+$/);
  await channel.sendTypingIndicator(event);
  const subscriber = subscriberCreateDtoSchema.parse(await channel.getSubscriberData(event));
  for (const [key, value] of Object.entries(manifest.subscriber)) assert.deepEqual((subscriber as Record<string, unknown>)[key], value, key);
  const photo = rebuildInboundEvent(decodeOne(readDelivery('photo.json').request.body, source).toPlain()).bindSource(source);
  const [ref] = await channel.getMessageAttachments(photo);
  assert.match(ref!.url, new RegExp(`^${platform.url}/file/bot[^/]+/photos/`));
  const pressed = rebuildInboundEvent(decodeOne(readDelivery('callback-query.json').request.body, source).toPlain()).bindSource(source);
  await channel.doSendMessage(pressed, { type: 'text', data: { text: 'Noted' } }, { idempotencyKey: 'cb' });
  assert.deepEqual(await createChannel().connect(source, { webhookUrl: 'https://bot.example.com/api/webhook/check' }), {
    connected: true,
    message: 'Telegram now posts message and callback_query updates to https://bot.example.com/api/webhook/check',
  });
  assert.deepEqual([...platform.calls].sort(), [
    'answerCallbackQuery',
    'getChat',
    'getFile',
    'sendAudio',
    'sendChatAction',
    'sendDocument',
    'sendMessage',
    'sendMessage',
    'sendPhoto',
    'sendVideo',
    'setWebhook',
  ]);

  platform.answerNext(manifest.platform.rateLimited);
  await assert.rejects(channel.doSendMessage(event, { type: 'text', data: { text: 'Hi' } }, { idempotencyKey: 'r' }), { status: 429, retryAfterMs: manifest.platform.rateLimited.retryAfterMs });
});
