import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { ChannelInboundEvent } from '@bot-ai/api';
import { createChannel, createSource, installDirectEgress, postRequest } from './sample-fixtures.ts';

// A real socket rather than nock: nock's delayed replies trip an assertion inside undici when
// the request is aborted.
test('gives up on a platform that does not answer within the send timeout', async (t) => {
  t.after(installDirectEgress());
  const server = createServer(() => {}); // never answers
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  server.on('connection', (socket) => t.after(() => socket.destroy()));
  const { port } = server.address() as AddressInfo;

  const source = createSource({ api_url: `http://127.0.0.1:${port}/api` });
  const events = [{ id: 'evt-1', sender: { id: 'user-1' }, message: { text: 'hi' } }];
  const [event] = createChannel().decode(postRequest({ events }), source) as ChannelInboundEvent[];
  const channel = createChannel();
  channel.sendTimeoutMs = 100;

  const envelope = { type: 'text', data: { text: 'Hello' } } as const;
  const sending = channel.doSendMessage(event!.bindSource(source), envelope, { idempotencyKey: 'out-1' });
  await assert.rejects(sending, {
    code: 'SAMPLE_ERR_PLATFORM_UNREACHABLE',
    message: /did not answer within 100 ms/,
  });
});
