import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createChannel, createSource, decodeDelivery, installDirectEgress, SETTINGS } from './whatsapp-fixtures.ts';

// A real socket rather than nock: nock's delayed replies trip an assertion inside undici when
// the request is aborted.
test('gives up on a Cloud API that does not answer within the call timeout', async (t) => {
  t.after(installDirectEgress());
  const server = createServer(() => {}); // never answers
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  server.on('connection', (socket) => t.after(() => socket.destroy()));
  const { port } = server.address() as AddressInfo;

  const source = createSource({ ...SETTINGS, api_base_url: `http://127.0.0.1:${port}` });
  const [event] = decodeDelivery('text.json', source);
  const channel = createChannel();
  channel.callTimeoutMs = 100;

  const sending = channel.doSendMessage(event!, { type: 'text', data: { text: 'Hello' } }, { idempotencyKey: 'out-1' });
  await assert.rejects(sending, { code: 'WHATSAPP_ERR_UNREACHABLE', message: /did not answer within 100 ms/ });
});
