import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Knex } from 'knex';
import { createKnex } from '../../host/db/create-knex.ts';
import { InboxStore, type InboxCommit } from '../../host/inbox/inbox-store.ts';
import { listenToInbox, type InboxListener } from '../support/claim-events.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { countInboxInserts, createSource, plainEvent, plainEvents, storedEventIds } from './inbox-fixtures.ts';

let database: TestDatabase;
let observer: Knex;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  // A second pool: what it sees is what any other host instance or the dispatcher would see.
  observer = createKnex({ url: database.url, poolMax: 2 });
  sourceId = await createSource(database.db, 'inbox tests');
});
after(async () => {
  await observer.destroy();
  await database.close();
});

const now = () => new Date('2026-11-22T10:00:00Z');
const commitOf = (prefix: string, count: number): InboxCommit => ({ sourceId, channel: 'test', workflowId: undefined, events: plainEvents(prefix, count) });

describe('group commit of the inbox', () => {
  test('concurrent commits share INSERT statements and store every event once', async (t) => {
    const inbox = new InboxStore(database.db, now);
    const inserts = countInboxInserts(database.db);
    t.after(() => inserts.stop());
    const commits = Array.from({ length: 20 }, (_, index) => commitOf(`shared-${String(index).padStart(2, '0')}`, 1 + (index % 3)));
    const added = await Promise.all(commits.map((commit) => inbox.commit(commit)));
    assert.deepEqual(added, commits.map((commit) => commit.events.length));
    assert.ok(inserts.count < commits.length, `${inserts.count} INSERT statements for ${commits.length} commits`);
    const expected = commits.flatMap((commit) => commit.events.map((event) => event.eventId)).sort();
    assert.deepEqual(await storedEventIds(database.db, sourceId, 'shared-'), expected);
  });

  test('commits that arrive while a statement runs go together in the next one', async (t) => {
    const inbox = new InboxStore(database.db, now);
    const inserts = countInboxInserts(database.db);
    t.after(() => inserts.stop());
    const first = inbox.commit(commitOf('wave-first', 1));
    await new Promise((resolve) => setImmediate(resolve)); // the first statement is under way
    const later = Array.from({ length: 5 }, (_, index) => inbox.commit(commitOf(`wave-later-${index}`, 2)));
    assert.deepEqual(await Promise.all([first, ...later]), [1, 2, 2, 2, 2, 2]);
    assert.equal(inserts.count, 2);
  });

  test('with batching off, every commit is its own statement', async (t) => {
    const inbox = new InboxStore(database.db, now, { batching: false });
    const inserts = countInboxInserts(database.db);
    t.after(() => inserts.stop());
    await Promise.all(Array.from({ length: 4 }, (_, index) => inbox.commit(commitOf(`unbatched-${index}`, 2))));
    assert.equal(inserts.count, 4);
    assert.equal((await storedEventIds(database.db, sourceId, 'unbatched-')).length, 8);
  });

  test('a statement holds at most maxBatchRows rows, and never splits one request', async (t) => {
    const inbox = new InboxStore(database.db, now, { maxBatchRows: 4 });
    const inserts = countInboxInserts(database.db);
    t.after(() => inserts.stop());
    const pairs = Array.from({ length: 6 }, (_, index) => inbox.commit(commitOf(`bounded-pair-${index}`, 2)));
    assert.deepEqual(await Promise.all(pairs), [2, 2, 2, 2, 2, 2]);
    assert.equal(inserts.count, 3);
    assert.equal(await inbox.commit(commitOf('bounded-large', 6)), 6);
    assert.equal(inserts.count, 4);
  });

  test('each commit resolves only once its rows are visible from another connection', async () => {
    const inbox = new InboxStore(database.db, now);
    const commits = Array.from({ length: 10 }, (_, index) => commitOf(`visible-${index}-`, 3));
    const seen = await Promise.all(
      commits.map(async (commit) => {
        await inbox.commit(commit);
        const rows = await observer('inbound_events').whereIn('event_id', commit.events.map((event) => event.eventId)).count({ count: '*' });
        return Number(rows[0]!.count);
      }),
    );
    assert.deepEqual(seen, commits.map(() => 3));
  });

  test('an event carried by two concurrent requests is stored once and both resolve', async (t) => {
    const inbox = new InboxStore(database.db, now);
    const inserts = countInboxInserts(database.db);
    t.after(() => inserts.stop());
    const first = { sourceId, channel: 'test', workflowId: 'wf-first', events: [plainEvent('dup-same'), plainEvent('dup-only-first')] };
    const retry = { sourceId, channel: 'test', workflowId: 'wf-retry', events: [plainEvent('dup-same'), plainEvent('dup-only-retry')] };
    assert.deepEqual(await Promise.all([inbox.commit(first), inbox.commit(retry)]), [2, 1]);
    assert.equal(inserts.count, 1, 'both requests went in one statement');
    assert.deepEqual(await storedEventIds(database.db, sourceId, 'dup-'), ['dup-only-first', 'dup-only-retry', 'dup-same']);
    const stored = await database.db('inbound_events').where({ source_id: sourceId, event_id: 'dup-same' }).first();
    assert.equal(stored.workflow_id, 'wf-first', 'the request that carried it first wins, as without batching');
  });

  test('an event stored earlier is not counted as new again', async () => {
    const inbox = new InboxStore(database.db, now);
    assert.equal(await inbox.commit(commitOf('again', 2)), 2);
    assert.deepEqual(await Promise.all([inbox.commit(commitOf('again', 3)), inbox.commit(commitOf('again-other', 1))]), [1, 1]);
  });

  const badCommits: Array<{ name: string; commit: () => InboxCommit; sqlState: string }> = [
    { name: 'a source deleted meanwhile', commit: () => ({ sourceId: randomUUID(), channel: 'test', workflowId: undefined, events: [plainEvent('bad-orphan')] }), sqlState: '23503' },
    { name: 'text PostgreSQL cannot store', commit: () => ({ sourceId, channel: 'test', workflowId: undefined, events: [plainEvent('bad-nul', 'nul \u0000 char')] }), sqlState: '22P05' },
  ];
  for (const { name, commit, sqlState } of badCommits) {
    test(`a batch that fails on one request's data (${name}) rejects that request only`, async (t) => {
      const inbox = new InboxStore(database.db, now);
      const inserts = countInboxInserts(database.db);
      t.after(() => inserts.stop());
      const prefix = `isolated-${sqlState}`;
      const good = inbox.commit(commitOf(`${prefix}-a`, 2));
      const bad = inbox.commit(commit());
      const alsoGood = inbox.commit(commitOf(`${prefix}-b`, 1));
      await assert.rejects(bad, (error: { code?: string }) => error.code === sqlState);
      assert.deepEqual(await Promise.all([good, alsoGood]), [2, 1]);
      assert.ok(inserts.count > 1, 'the shared statement failed and each request was retried alone');
      assert.deepEqual(await storedEventIds(database.db, sourceId, prefix), [`${prefix}-a-0`, `${prefix}-a-1`, `${prefix}-b-0`]);
    });
  }

  test('close writes what is pending, then refuses new commits', async () => {
    const inbox = new InboxStore(database.db, now);
    const finished: number[] = [];
    for (const pending of [inbox.commit(commitOf('closing-a', 2)), inbox.commit(commitOf('closing-b', 1))]) void pending.then((added) => finished.push(added));
    await inbox.close();
    assert.deepEqual(finished, [2, 1], 'both commits had finished when close resolved');
    assert.deepEqual(await storedEventIds(observer, sourceId, 'closing-'), ['closing-a-0', 'closing-a-1', 'closing-b-0']);
    await assert.rejects(inbox.commit(commitOf('closed', 1)), { code: 'BOT_ERR_DB_UNAVAILABLE', status: 503 });
    assert.deepEqual(await storedEventIds(database.db, sourceId, 'closed'), []);
  });
});

describe('the notice that wakes the dispatchers, sent with the inbox rows', () => {
  let listener: InboxListener;
  before(async () => (listener = await listenToInbox(database.url)));
  after(() => listener.close());

  test('with notify, a listening connection gets exactly one notice per statement that added events', async (t) => {
    const inbox = new InboxStore(database.db, now, { notify: true });
    const inserts = countInboxInserts(database.db);
    t.after(() => inserts.stop());
    const before = await listener.received();
    const commits = Array.from({ length: 20 }, (_, index) => commitOf(`noticed-${String(index).padStart(2, '0')}`, 1 + (index % 3)));
    assert.deepEqual(await Promise.all(commits.map((commit) => inbox.commit(commit))), commits.map((commit) => commit.events.length));
    assert.ok(inserts.count < commits.length, `${inserts.count} INSERT statements for ${commits.length} commits`);
    assert.equal((await listener.received()) - before, inserts.count, 'one notice per statement, not per event or per request');
  });

  test('without notify, no notice', async () => {
    const before = await listener.received();
    assert.equal(await new InboxStore(database.db, now).commit(commitOf('unnoticed', 2)), 2);
    assert.equal(await listener.received(), before);
  });

  test('events and their notice go in one statement, with no transaction around it', async (t) => {
    const inbox = new InboxStore(database.db, now, { notify: true });
    const statements: string[] = [];
    const onQuery = (query: { sql: string }) => void statements.push(query.sql.trim().split(/\s+/)[0]!.toUpperCase());
    database.db.on('query', onQuery);
    t.after(() => void database.db.removeListener('query', onQuery));
    const before = await listener.received();
    assert.deepEqual(await Promise.all([inbox.commit(commitOf('single-a', 2)), inbox.commit(commitOf('single-b', 1))]), [2, 1]);
    assert.deepEqual(statements, ['WITH']);
    assert.equal((await listener.received()) - before, 1);
  });

  test('a batch whose events were all stored already sends no notice', async () => {
    const inbox = new InboxStore(database.db, now, { notify: true });
    assert.equal(await inbox.commit(commitOf('replayed', 2)), 2);
    const before = await listener.received();
    assert.deepEqual(await Promise.all([inbox.commit(commitOf('replayed', 2)), inbox.commit(commitOf('replayed', 1))]), [0, 0]);
    assert.equal(await listener.received(), before);
  });

  test('a statement that failed sends no notice and leaves no event row behind; the requests retried alone that succeed send theirs', async (t) => {
    const inbox = new InboxStore(database.db, now, { notify: true });
    const inserts = countInboxInserts(database.db);
    t.after(() => inserts.stop());
    const before = await listener.received();
    const orphan = { sourceId: randomUUID(), channel: 'test', workflowId: undefined, events: [plainEvent('unnoticed-orphan')] };
    await assert.rejects(inbox.commit(orphan), (error: { code?: string }) => error.code === '23503');
    assert.equal(await listener.received(), before, 'a lone failed statement');

    const good = inbox.commit(commitOf('noticed-good-a', 2));
    const bad = inbox.commit({ ...orphan, events: [plainEvent('unnoticed-orphan-b')] });
    const alsoGood = inbox.commit(commitOf('noticed-good-b', 1));
    await assert.rejects(bad, (error: { code?: string }) => error.code === '23503');
    assert.deepEqual(await Promise.all([good, alsoGood]), [2, 1]);
    assert.equal(inserts.count, 5, 'the lone one, then the shared statement, failed; then each request alone');
    assert.equal((await listener.received()) - before, 2, 'one notice for each request that was stored, none for the failures');
    assert.deepEqual(await storedEventIds(observer, orphan.sourceId, 'unnoticed-'), []);
  });
});
