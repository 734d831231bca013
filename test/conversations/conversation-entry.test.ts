import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConversationEntry } from '../../host/conversations/conversation-entry.ts';
import { SubscriberStore } from '../../host/conversations/subscriber-store.ts';
import { statementsDuring } from '../support/statements-during.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { TestClock } from '../support/test-clock.ts';

const INACTIVITY_MS = 30 * 60_000;
let t: TestApp;
let sourceId: string;
const clock = new TestClock('2026-11-22T10:00:00Z');
let entry: ConversationEntry;

before(async () => {
  t = await createTestApp();
  [{ id: sourceId }] = await t.database.db('sources').insert({ ref: 'ref-entry', name: 'Platform', channel: 'sample', settings: '{}' }).returning('id');
  entry = new ConversationEntry(t.database.db, { now: clock.now, inactivityMs: INACTIVITY_MS });
  await new SubscriberStore(t.database.db).findOrCreate(sourceId, 'u-ada', async () => ({ foreignId: 'u-ada', firstName: 'Ada', lastName: 'Lovelace' }) as never);
});
after(() => t.close());

/** A stored inbound event from `sender`: history rows refer to it. */
async function inboundEvent(eventId: string, sender: string): Promise<string> {
  const [row] = await t.database.db('inbound_events')
    .insert({ source_id: sourceId, event_id: eventId, sender_foreign_id: sender, event: JSON.stringify({}) })
    .returning('id');
  return row.id;
}

const text = (value: string) => ({ type: 'text', data: { text: value } }) as const;

test('a sender without a subscriber enters nothing and writes nothing', async () => {
  const threadsBefore = await t.database.db('threads').count({ n: '*' }).first();
  const entered = await entry.enter({ sourceId, senderForeignId: 'u-nobody', inboundEventId: await inboundEvent('nobody-1', 'u-nobody'), message: text('hi') });
  assert.equal(entered, undefined);
  assert.deepEqual(await t.database.db('threads').count({ n: '*' }).first(), threadsBefore);
  assert.deepEqual(await t.database.db('conversation_messages').where({ text: 'hi' }), []);
});

test('messages within the inactivity window share a thread; after it a new thread starts', async () => {
  const first = (await entry.enter({ sourceId, senderForeignId: 'u-ada', inboundEventId: await inboundEvent('ada-1', 'u-ada'), message: text('one') }))!;
  assert.equal(first.subscriber.firstName, 'Ada');
  clock.advance(INACTIVITY_MS - 1_000);
  const second = (await entry.enter({ sourceId, senderForeignId: 'u-ada', inboundEventId: await inboundEvent('ada-2', 'u-ada'), message: text('two') }))!;
  assert.equal(second.threadId, first.threadId, 'still the same conversation: the second message touched the thread');
  clock.advance(INACTIVITY_MS - 1_000);
  const third = (await entry.enter({ sourceId, senderForeignId: 'u-ada', inboundEventId: await inboundEvent('ada-3', 'u-ada'), message: text('three') }))!;
  assert.equal(third.threadId, first.threadId, 'the window counts from the last message, not the first');
  clock.advance(INACTIVITY_MS + 1_000);
  const fourth = (await entry.enter({ sourceId, senderForeignId: 'u-ada', inboundEventId: await inboundEvent('ada-4', 'u-ada'), message: text('four') }))!;
  assert.notEqual(fourth.threadId, first.threadId, 'silence longer than the window starts a new thread');

  const history = await t.database.db('conversation_messages').whereIn('thread_id', [first.threadId, fourth.threadId]).orderBy('id').select('thread_id', 'direction', 'text');
  assert.deepEqual(history, [
    { thread_id: first.threadId, direction: 'in', text: 'one' },
    { thread_id: first.threadId, direction: 'in', text: 'two' },
    { thread_id: first.threadId, direction: 'in', text: 'three' },
    { thread_id: fourth.threadId, direction: 'in', text: 'four' },
  ]);
});

test('an event entered again (a retried run) is recorded in the history once; one without a message records nothing', async () => {
  const eventId = await inboundEvent('ada-retry', 'u-ada');
  const first = (await entry.enter({ sourceId, senderForeignId: 'u-ada', inboundEventId: eventId, message: text('again') }))!;
  const second = (await entry.enter({ sourceId, senderForeignId: 'u-ada', inboundEventId: eventId, message: text('again') }))!;
  assert.equal(second.threadId, first.threadId);
  assert.equal((await t.database.db('conversation_messages').where({ inbound_event_id: eventId })).length, 1);
  const silent = await inboundEvent('ada-silent', 'u-ada');
  await entry.enter({ sourceId, senderForeignId: 'u-ada', inboundEventId: silent, message: undefined });
  assert.deepEqual(await t.database.db('conversation_messages').where({ inbound_event_id: silent }), []);
});

test('arrivals of several conversations share one statement; two of one subscriber submitted together share its one thread', async () => {
  const store = new SubscriberStore(t.database.db);
  for (const name of ['u-bo', 'u-cy']) await store.findOrCreate(sourceId, name, async () => ({ foreignId: name }) as never);
  clock.advance(INACTIVITY_MS + 1);
  const senders = ['u-bo', 'u-cy', 'u-bo', 'u-nobody'];
  const eventIds = await Promise.all(senders.map((sender, index) => inboundEvent(`batch-${index}`, sender)));
  let entered: Awaited<ReturnType<ConversationEntry['enter']>>[] = [];
  const statements = await statementsDuring(t.database.db, async () => {
    entered = await Promise.all(senders.map((sender, index) => entry.enter({ sourceId, senderForeignId: sender, inboundEventId: eventIds[index]!, message: text(`batch ${index}`) })));
  });
  const [bo, cy, boAgain, nobody] = entered;
  assert.equal(nobody, undefined);
  assert.equal(bo!.subscriber.foreignId, 'u-bo');
  assert.equal(cy!.subscriber.foreignId, 'u-cy');
  assert.notEqual(bo!.threadId, cy!.threadId);
  // Without the batch's key, both arrivals of u-bo would have started a thread each.
  assert.equal(boAgain!.threadId, bo!.threadId);
  assert.equal((await t.database.db('threads').where({ subscriber_id: bo!.subscriber.id })).length, 1);
  // u-bo's second arrival waits for the next statement.
  assert.equal(statements.length, 2);
  const history = await t.database.db('conversation_messages').whereIn('thread_id', [bo!.threadId, cy!.threadId]).orderBy('text').select('thread_id', 'text');
  assert.deepEqual(history, [
    { thread_id: bo!.threadId, text: 'batch 0' },
    { thread_id: cy!.threadId, text: 'batch 1' },
    { thread_id: bo!.threadId, text: 'batch 2' },
  ]);
});
