import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SendPacer, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import { TELEGRAM_CHAT_SEND_INTERVAL_MS } from 'bot-channel-telegram';
import nock from 'nock';
import { BOT_TOKEN, createChannel, createSource, deliveredEvent, sentMessage } from './telegram-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const options = { idempotencyKey: 'out-1' };
const hello: StdOutgoingMessageEnvelope = { type: 'text', data: { text: 'Hello' } };

useNockedEgress();

/** A clock that only moves when the pacer sleeps, recording each sleep. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    },
  };
}

/** Sends to the chats, answering each send, and returns the chat ids Telegram got, in order. */
function answerSends(count: number): number[] {
  const chats: number[] = [];
  nock('https://api.telegram.org')
    .post(`/bot${BOT_TOKEN}/sendMessage`)
    .times(count)
    .reply(async (request: Request) => {
      chats.push((JSON.parse(await request.text()) as { chat_id: number }).chat_id);
      return [200, sentMessage(chats.length)];
    });
  return chats;
}

test('Telegram asks for at most one message a second per chat', () => {
  assert.equal(TELEGRAM_CHAT_SEND_INTERVAL_MS, 1_000);
});

test('spaces sends to one chat a second apart, and leaves other chats and other sources alone', async () => {
  const channel = createChannel();
  const { clock, sleeps } = fakeClock();
  channel.pacer = new SendPacer(TELEGRAM_CHAT_SEND_INTERVAL_MS, clock);
  const chats = answerSends(5);
  const privateChat = deliveredEvent('text-message.json');
  const group = deliveredEvent('group-text-message.json');
  const otherBot = deliveredEvent('text-message.json', createSource(undefined, 'source-2'));

  await channel.doSendMessage(privateChat, hello, options);
  await channel.doSendMessage(privateChat, hello, options); // waits a second
  await channel.doSendMessage(group, hello, options); // another chat: at once
  await channel.doSendMessage(otherBot, hello, options); // the same user, another bot: at once
  await channel.doSendMessage(privateChat, hello, options); // waits a second again
  assert.deepEqual(sleeps, [1_000, 1_000]);
  assert.deepEqual(chats, [123456789, 123456789, -1001234567890, 123456789, 123456789]);
});

test('an envelope refused before sending takes no pacing slot', async () => {
  const channel = createChannel();
  const { clock, sleeps } = fakeClock();
  channel.pacer = new SendPacer(TELEGRAM_CHAT_SEND_INTERVAL_MS, clock);
  answerSends(1);
  const event = deliveredEvent('text-message.json');
  await assert.rejects(channel.doSendMessage(event, { type: 'list', data: { elements: [{ title: 'A' }] } }, options));
  await channel.doSendMessage(event, hello, options);
  assert.deepEqual(sleeps, []);
});

test("the handler's own pacer really spaces two sends to one chat by about a second", async () => {
  const channel = createChannel();
  const at: number[] = [];
  nock('https://api.telegram.org')
    .post(`/bot${BOT_TOKEN}/sendMessage`)
    .times(2)
    .reply(() => {
      at.push(performance.now());
      return [200, sentMessage(at.length)];
    });
  const event = deliveredEvent('text-message.json', createSource(undefined, 'source-real-clock'));
  // Measured from before the first send: the pacer books the second slot a second after the
  // first one starts, so a first request slowed on a busy machine cannot shrink what is measured.
  const started = performance.now();
  await Promise.all([channel.doSendMessage(event, hello, options), channel.doSendMessage(event, hello, options)]);
  assert.equal(at.length, 2);
  assert.ok(at[1]! - started >= 950, `the second send came ${Math.round(at[1]! - started)} ms after the first was asked for`);
});
