import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { ADA, createChannel, installDirectEgress, PAGE_ID, SEND_SETTINGS, storedEvent } from './messenger-test-kit.ts';

// A real socket rather than nock: nock's delayed replies trip an assertion inside undici when
// the request is aborted.
async function silentGraphApi(t: TestContext): Promise<string> {
  t.after(installDirectEgress());
  const server = createServer(() => {}); // never answers
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  server.on('connection', (socket) => t.after(() => socket.destroy()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('gives up on a Graph API that does not answer within the send timeout', async (t) => {
  const channel = createChannel();
  channel.sendTimeoutMs = 100;
  const event = storedEvent('text.json', { ...SEND_SETTINGS, api_base_url: await silentGraphApi(t) });
  await assert.rejects(channel.doSendMessage(event, { type: 'text', data: { text: 'Hello' } }, { idempotencyKey: 'out-1' }), {
    code: 'MESSENGER_ERR_UNREACHABLE',
    message: /did not answer within 100 ms/,
  });
});

test('falls back to the PSID when the profile API does not answer within the profile timeout', async (t) => {
  const channel = createChannel();
  channel.profileTimeoutMs = 100;
  const dto = await channel.getSubscriberData(storedEvent('text.json', { ...SEND_SETTINGS, api_base_url: await silentGraphApi(t) }));
  assert.partialDeepStrictEqual(dto, { foreignId: ADA, firstName: '', lastName: '', channel: { name: 'messenger', page_id: PAGE_ID } });
});
