import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { subscriberCreateDtoSchema, type ChannelInboundEvent } from '@bot-ai/api';
import { createChannel, createSource, deliveryNames, installDirectEgress, manifestSettings, readDelivery, readManifest, decodeDelivery } from './whatsapp-fixtures.ts';

/**
 * A stand-in for the author kit's fake platform: answers each request with the first route of
 * channel-check.json whose method and path match (404 otherwise), and records the requests.
 */
async function fakePlatform(t: { after: (fn: () => void) => void }) {
  const { routes } = readManifest().platform;
  const requests: Array<{ method: string; path: string; authorization?: string; body: string }> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push({ method: req.method ?? '', path, body, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      const route = routes.find((candidate) => candidate.method === req.method && new RegExp(candidate.path).test(path));
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(route.status, { 'content-type': 'application/json', ...route.headers }).end(JSON.stringify(route.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests };
}

test('every delivery fixture and channel-check.json follow the author kit schema', () => {
  assert.ok(deliveryNames().length >= 15);
  for (const name of deliveryNames()) assert.doesNotThrow(() => readDelivery(name), name);
  const manifest = readManifest();
  assert.equal(manifest.settings.api_base_url, '{{platform}}');
  assert.ok(deliveryNames().includes(manifest.replyTo));
});

test('the manifest routes answer the send, typing and media calls in the Cloud API format', async (t) => {
  t.after(installDirectEgress());
  const platform = await fakePlatform(t);
  const source = createSource(manifestSettings(platform.url));
  const channel = createChannel();
  const [reply] = decodeDelivery(readManifest().replyTo, source);

  const { mid } = await channel.doSendMessage(reply!, { type: 'text', data: { text: 'Hello' } }, { idempotencyKey: 'k-1' });
  assert.match(mid, /^wamid\./);
  await channel.sendTypingIndicator(reply!);
  const [image] = decodeDelivery('image.json', source);
  const [file] = await channel.getMessageAttachments(image!);
  assert.match(file!.url, /^https:\/\/lookaside\.fbsbx\.com\//);
  assert.deepEqual(
    platform.requests.map(({ method, path }) => `${method} ${path}`),
    ['POST /v21.0/106540352242922/messages', 'POST /v21.0/106540352242922/messages', 'GET /v21.0/1479537139650973'],
  );
  assert.ok(platform.requests.every((request) => request.authorization === `Bearer ${String(source.settings.access_token)}`));
});

test("the subscriber of replyTo has the manifest's fields, whether or not the platform answers (no profile API)", async (t) => {
  t.after(installDirectEgress());
  const { subscriber, replyTo } = readManifest();
  for (const platformUrl of [(await fakePlatform(t)).url, 'http://127.0.0.1:9']) {
    const source = createSource(manifestSettings(platformUrl));
    const [event] = decodeDelivery(replyTo, source) as ChannelInboundEvent[];
    const dto = await createChannel().getSubscriberData(event!);
    assert.ok(subscriberCreateDtoSchema.safeParse(dto).success);
    assert.partialDeepStrictEqual(dto, subscriber);
  }
});
