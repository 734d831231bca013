import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SendPacer, type ChannelInboundEvent, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import SlackChannel, { SLACK_CHANNEL_SEND_INTERVAL_MS } from 'bot-channel-slack';
import nock from 'nock';
import { createChannel, decodeDelivery, installDirectEgress, SLACK_API } from './slack-fixtures.ts';

let uninstallEgress: () => void;
before(() => {
  nock.disableNetConnect();
  uninstallEgress = installDirectEgress();
});
after(() => {
  nock.cleanAll();
  nock.enableNetConnect();
  uninstallEgress();
});

/**
 * A channel whose pacer runs on a fake clock: a sleep moves the clock by what was asked, after a
 * few real milliseconds (so a send that did not wait for it would reach Slack before the clock
 * moved, and show up at the earlier time).
 */
function pacedChannel() {
  const clock = { ms: 0, sleeps: [] as number[] };
  const channel = createChannel();
  channel.pacer = new SendPacer(SLACK_CHANNEL_SEND_INTERVAL_MS, {
    now: () => clock.ms,
    sleep: (ms) =>
      new Promise((resolve) =>
        setTimeout(() => {
          clock.sleeps.push(ms);
          clock.ms += ms;
          resolve();
        }, 20),
      ),
  });
  return { channel, clock };
}

/** Records at which fake time each post reached Slack, and to which channel. */
function recordPosts(clock: { ms: number }, count: number) {
  const posts: Array<{ at: number; channel: string }> = [];
  nock(SLACK_API)
    .post('/api/chat.postMessage')
    .times(count)
    .reply(async (request: Request) => {
      posts.push({ at: clock.ms, channel: ((await request.json()) as { channel: string }).channel });
      return [200, { ok: true, ts: `1700000000.00000${posts.length}` }];
    });
  return posts;
}

const text: StdOutgoingMessageEnvelope = { type: 'text', data: { text: 'Hello' } };

function withChannel(event: ChannelInboundEvent, team: string, channel: string): ChannelInboundEvent {
  Object.assign(event.getChannelData(), { team_id: team, channel_id: channel });
  return event;
}

test('the handler paces sends one second apart per Slack channel, as Slack publishes', () => {
  assert.equal(SLACK_CHANNEL_SEND_INTERVAL_MS, 1000);
  assert.ok(new SlackChannel().pacer instanceof SendPacer);
});

test('spaces the sends to one channel a second apart, and does not hold back another channel or workspace', async () => {
  const { channel, clock } = pacedChannel();
  const posts = recordPosts(clock, 5);
  const dm = () => decodeDelivery('message-im-text.json')[0]!;
  await channel.doSendMessage(dm(), text, { idempotencyKey: 'k1' });
  await channel.doSendMessage(dm(), text, { idempotencyKey: 'k2' });
  await channel.doSendMessage(withChannel(dm(), 'T061EG9R6', 'C123ABC456'), text, { idempotencyKey: 'k3' });
  await channel.doSendMessage(withChannel(dm(), 'T0OTHER00', 'D024BE91L'), text, { idempotencyKey: 'k4' });
  await channel.doSendMessage(dm(), text, { idempotencyKey: 'k5' });
  assert.deepEqual(posts, [
    { at: 0, channel: 'D024BE91L' },
    { at: 1000, channel: 'D024BE91L' },
    { at: 1000, channel: 'C123ABC456' },
    { at: 1000, channel: 'D024BE91L' },
    { at: 2000, channel: 'D024BE91L' },
  ]);
  assert.deepEqual(clock.sleeps, [1000, 1000]);
});

test('concurrent sends to one channel (all asked at time 0) wait one and two seconds', async () => {
  const sleeps: number[] = [];
  const channel = createChannel();
  channel.pacer = new SendPacer(SLACK_CHANNEL_SEND_INTERVAL_MS, { now: () => 0, sleep: async (ms) => void sleeps.push(ms) });
  const posts = recordPosts({ ms: 0 }, 3);
  await Promise.all(['a', 'b', 'c'].map((key) => channel.doSendMessage(decodeDelivery('message-im-text.json')[0]!, text, { idempotencyKey: key })));
  assert.deepEqual(sleeps.sort(), [1000, 2000]);
  assert.equal(posts.length, 3);
});

test('a type it cannot send books no slot: the next send goes at once', async () => {
  const { channel, clock } = pacedChannel();
  const posts = recordPosts(clock, 1);
  const event = decodeDelivery('message-im-text.json')[0]!;
  await assert.rejects(channel.doSendMessage(event, { type: 'list', data: { elements: [{ title: 'A' }] } }, { idempotencyKey: 'k1' }), { name: 'UnsupportedOutgoingFormatError' });
  await channel.doSendMessage(event, text, { idempotencyKey: 'k2' });
  assert.deepEqual(posts, [{ at: 0, channel: 'D024BE91L' }]);
  assert.deepEqual(clock.sleeps, []);
});
