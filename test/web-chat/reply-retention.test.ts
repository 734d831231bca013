import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { EXPIRED_MEMORY_RECORDS, TtlSweeper } from '../../host/memory/records/ttl-sweeper.ts';
import { oldWebChatReplies } from '../../host/websockets/web-chat-reply-retention.ts';
import { TestClock } from '../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const DAY_MS = 24 * 60 * 60_000;
let database: TestDatabase;
const clock = new TestClock('2030-01-01T00:00:00.000Z');
let sessionId: string;

before(async () => {
  database = await createTestDatabase();
  const [source] = await database.db('sources').insert({ ref: 'ref-retention', name: 'Web', channel: 'web', settings: '{}' }).returning('id');
  sessionId = randomUUID();
  await database.db('web_chat_sessions').insert({ id: sessionId, source_id: source.id, last_seq: 30 });
});
after(() => database.close());

/** Replies `from`..`to` (seq), stored `ageMs` before the clock's now. */
async function insertReplies(from: number, to: number, ageMs: number): Promise<void> {
  await database.db.raw(
    `INSERT INTO web_chat_replies (session_id, seq, send_key, message, created_at)
     SELECT ?, n, 'key-' || n, '{"text":"hi"}'::jsonb, ?::timestamptz FROM generate_series(?::int, ?::int) AS n`,
    [sessionId, new Date(clock.now().getTime() - ageMs).toISOString(), from, to],
  );
}

test('live chat replies older than the retention are swept in batches; younger ones and the session stay', async () => {
  await insertReplies(1, 25, 31 * DAY_MS);
  await insertReplies(26, 30, 29 * DAY_MS);
  const sweeper = new TtlSweeper(database.db, {
    intervalMs: 60_000, batchSize: 10, pauseMs: 0, now: clock.now, logger: pino({ level: 'silent' }),
    target: oldWebChatReplies(30 * DAY_MS),
  });
  const result = await sweeper.sweepOnce();
  assert.deepEqual(result, { deleted: 25, batches: 3, ran: true });
  const left = await database.db('web_chat_replies').orderBy('seq').pluck('seq');
  assert.deepEqual(left.map(Number), [26, 27, 28, 29, 30]);
  assert.equal((await database.db('web_chat_sessions').where({ id: sessionId }).first()).last_seq, 30, 'the numbering goes on');
  await sweeper.close();
});

test('each target has its own lock: the reply sweep runs while memory is being swept elsewhere', async () => {
  const logger = pino({ level: 'silent' });
  const holder = await database.db.client.acquireConnection();
  try {
    await database.db.raw('SELECT pg_advisory_lock(?::bigint)', [EXPIRED_MEMORY_RECORDS.lockKey.toString()]).connection(holder);
    const replies = new TtlSweeper(database.db, { intervalMs: 60_000, batchSize: 10, pauseMs: 0, now: clock.now, logger, target: oldWebChatReplies(30 * DAY_MS) });
    const memory = new TtlSweeper(database.db, { intervalMs: 60_000, batchSize: 10, pauseMs: 0, now: clock.now, logger });
    assert.equal((await replies.sweepOnce()).ran, true);
    assert.equal((await memory.sweepOnce()).ran, false, 'the memory sweep is held by the other session');
  } finally {
    await database.db.raw('SELECT pg_advisory_unlock(?::bigint)', [EXPIRED_MEMORY_RECORDS.lockKey.toString()]).connection(holder);
    database.db.client.releaseConnection(holder);
  }
});
