import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { Dispatcher, type ClaimTrigger } from '../../../host/dispatch/dispatcher.ts';
import { ConversationHarness, sampleEvent } from '../conversation-harness.ts';

// Messages posted back to back through the whole pipeline (signed webhooks, the sample channel in
// its sandbox, the greeting workflow, a platform on a real port) are answered one after the other
// with nothing waiting for a timer: each next message of a conversation is claimed the moment the
// one before ends (handed on, or claimed for the freed slot), and a new one on the inbox's notice.
//
// The dispatcher here polls once a minute, so an event that waited for a timer (the poll, or a
// retry) shows in its counters, or is not answered within the test's deadlines at all.

let h: ConversationHarness;
let dispatcher: Dispatcher;
before(async () => {
  h = await ConversationHarness.start();
  // The harness' dispatcher polls every 200 ms, which would hide a missed wake-up: this one replaces it.
  await h.dispatcher.stop();
  dispatcher = await Dispatcher.start({
    db: h.app.database.db,
    processor: h.app.services.inboundEvents,
    concurrency: 4,
    pollIntervalMs: 60_000,
    leaseMs: 5_000,
    logger: pino({ level: 'silent' }),
  });
});
after(async () => {
  await dispatcher.stop();
  await h.close();
});

/** Under the poll interval: a deadline reached only by events that waited for the poll. */
const DEADLINE_MS = 40_000;

/** Posts each message as its own webhook, the next once the one before was acknowledged. */
async function postInTurn(sender: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `${sender}-${i}`;
    assert.equal(await h.deliver([sampleEvent(id, sender, `my name is ${nameOf(sender, i)}`)]), 200);
    ids.push(id);
  }
  return ids;
}

const nameOf = (sender: string, i: number) => `${sender[0]!.toUpperCase()}${sender.slice(1)}${i}`;

function repliesTo(sender: string): string[] {
  return h.platform.received.filter((message) => message.body.recipient.id === sender).map((message) => message.body.message.text);
}

/** Events claimed by each trigger since `before`. */
function claimedSince(before: Record<ClaimTrigger, number>): Record<ClaimTrigger, number> {
  return Object.fromEntries(Object.entries(dispatcher.claimed).map(([trigger, count]) => [trigger, count - before[trigger as ClaimTrigger]])) as Record<ClaimTrigger, number>;
}

async function expectAllDoneOnce(ids: string[]): Promise<void> {
  const rows = await h.settled(ids, DEADLINE_MS);
  assert.deepEqual([...rows.values()].filter((row) => row.status !== 'done'), []);
  const attempts = await h.app.database.db('inbound_events').whereIn('event_id', ids).pluck('attempts');
  assert.deepEqual(attempts, ids.map(() => 1), 'each event claimed once');
}

// Catches a conversation's next event left behind when the one before ends (neither handed on
// nor claimed for the freed slot), or an intake whose commit wakes no dispatcher: the rest of the
// burst would wait for the poll.
test('20 messages of one subscriber posted back to back are answered in order, once each, none waiting for a timer', async () => {
  const before = { ...dispatcher.claimed };
  const ids = await postInTurn('ida', 20);
  await expectAllDoneOnce(ids);
  await h.platform.waitFor(20, DEADLINE_MS);
  assert.deepEqual(repliesTo('ida'), Array.from({ length: 20 }, (_, i) => `Hello ${nameOf('ida', i)}!`));

  const claimed = claimedSince(before);
  assert.equal(Object.values(claimed).reduce((sum, count) => sum + count, 0), 20, `each event claimed once: ${JSON.stringify(claimed)}`);
  assert.deepEqual([claimed.poll, claimed.retry], [0, 0], `no event waited for a timer: ${JSON.stringify(claimed)}`);
});

// Catches the same across conversations, and a conversation's events run side by side or out of
// order when ten conversations compete for four slots.
test('10 subscribers posting 5 messages each at once are answered in order per subscriber, once each, none waiting for a timer', async () => {
  const before = { ...dispatcher.claimed };
  const received = h.platform.received.length;
  const senders = Array.from({ length: 10 }, (_, i) => `sub${i}x`);
  const ids = (await Promise.all(senders.map((sender) => postInTurn(sender, 5)))).flat();
  await expectAllDoneOnce(ids);
  await h.platform.waitFor(received + 50, DEADLINE_MS);
  for (const sender of senders) {
    assert.deepEqual(repliesTo(sender), Array.from({ length: 5 }, (_, i) => `Hello ${nameOf(sender, i)}!`), sender);
  }
  assert.equal(h.platform.received.length, received + 50, 'no reply sent twice');

  const claimed = claimedSince(before);
  assert.equal(Object.values(claimed).reduce((sum, count) => sum + count, 0), 50, `each event claimed once: ${JSON.stringify(claimed)}`);
  assert.deepEqual([claimed.poll, claimed.retry], [0, 0], `no event waited for a timer: ${JSON.stringify(claimed)}`);
});
