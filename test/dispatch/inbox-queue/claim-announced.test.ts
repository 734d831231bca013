import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import pg from 'pg';
import { claimConversationHeads } from '../../../host/dispatch/claim-inbound-events.ts';
import { INBOX_CHANNEL, MAX_ANNOUNCED_EVENTS, readInboxNotice } from '../../../host/inbox/inbox-notice.ts';
import { insertInboxRows } from '../../../host/inbox/insert-inbox-rows.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertSource, queueEvents } from './queued-events.ts';

// A notice names the events its statement committed, and a dispatcher with free slots claims
// the next event of just their conversations (and of conversations its own runs released), with
// the same rules as the walk over the whole inbox.

let database: TestDatabase;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  sourceId = await insertSource(database.db);
});
after(() => database.close());
beforeEach(() => database.db('inbound_events').delete());

const statusOf = async (ids: string[]) => (await database.db('inbound_events').whereIn('id', ids).orderBy('seq').select('status')).map((row) => row.status);

test('claims the oldest event of each announced event\'s conversation when that conversation is idle, nothing else', async () => {
  const [first, second, alone] = await queueEvents(database.db, sourceId, [{ sender: 'ann' }, { sender: 'ann' }, { sender: 'bo' }]);
  const [busyRunning, busyQueued] = await queueEvents(database.db, sourceId, [{ sender: 'cy', status: 'running' }, { sender: 'cy' }]);
  const [waiting] = await queueEvents(database.db, sourceId, [{ sender: 'di', retryInSecs: 60 }]);
  const [unannounced] = await queueEvents(database.db, sourceId, [{ sender: 'ed' }]);
  const claimed = await claimConversationHeads(database.db, [second!, alone!, busyQueued!, waiting!], [], 10);
  assert.deepEqual(claimed.map((event) => event.id).sort(), [first!, alone!].sort());
  assert.deepEqual(await statusOf([first!, second!, alone!, busyRunning!, busyQueued!, waiting!, unannounced!]), ['running', 'queued', 'running', 'running', 'queued', 'queued', 'queued']);
  assert.equal(claimed[0]!.attempts, 1);
  assert.equal(typeof claimed[0]!.claim_token, 'string');
});

test('claims the next event of a released conversation, named by source and sender', async () => {
  const [done, next] = await queueEvents(database.db, sourceId, [{ sender: 'flo', status: 'done' }, { sender: 'flo' }]);
  const [other] = await queueEvents(database.db, sourceId, [{ sender: 'gus' }]);
  const claimed = await claimConversationHeads(database.db, [], [{ sourceId, conversation: 'flo' }], 10);
  assert.deepEqual(claimed.map((event) => event.id), [next!]);
  assert.deepEqual(await statusOf([done!, next!, other!]), ['done', 'running', 'queued'], 'only the conversation named');
});

test('claims at most the free slots, oldest first', async () => {
  const ids = await queueEvents(database.db, sourceId, [{ sender: 'a' }, { sender: 'b' }, { sender: 'c' }]);
  const claimed = await claimConversationHeads(database.db, [...ids].reverse(), [], 2);
  assert.deepEqual(claimed.map((event) => event.id).sort(), ids.slice(0, 2).sort());
});

test('the inbox statement\'s notice names the events it added, and nothing beyond what one notice holds', async (t) => {
  const listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  t.after(() => listener.end());
  const payloads: string[] = [];
  listener.on('notification', (message) => message.channel === INBOX_CHANNEL && payloads.push(message.payload ?? ''));
  await listener.query(`LISTEN ${INBOX_CHANNEL}`);
  const commit = (count: number, prefix: string) => {
    const events = Array.from({ length: count }, (_, index) => ({ kind: 'message' as const, channelName: 'sample', rawEvent: {}, channelAttributes: {}, occurredAt: '2026-11-25T00:00:00.000Z', eventId: `${prefix}-${index}`, senderForeignId: `${prefix}-${index}` }));
    return insertInboxRows(database.db, [{ sourceId, workflowId: undefined, events, receivedAt: new Date() }], true);
  };
  await commit(3, 'few');
  await commit(MAX_ANNOUNCED_EVENTS + 1, 'many');
  for (const deadline = Date.now() + 10_000; payloads.length < 2; await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() > deadline) assert.fail(`notices: ${payloads.length}`);
  }
  const few = await database.db('inbound_events').where('event_id', 'like', 'few-%').pluck('id');
  assert.deepEqual([...(readInboxNotice(payloads[0]) as string[])].sort(), [...few].sort());
  assert.equal(readInboxNotice(payloads[1]), 'anything', 'past what a notice holds it names none: the dispatcher walks the inbox');
});

test('a notice that does not name events means anything', () => {
  assert.equal(readInboxNotice(''), 'anything');
  assert.equal(readInboxNotice(undefined), 'anything');
  assert.equal(readInboxNotice('test-marker-1'), 'anything');
  assert.deepEqual(readInboxNotice('00000000-0000-4000-8000-000000000001'), ['00000000-0000-4000-8000-000000000001']);
});
