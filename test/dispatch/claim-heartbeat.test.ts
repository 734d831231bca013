import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { ClaimHeartbeat } from '../../host/dispatch/claim-heartbeat.ts';
import { InboundEventProcessor } from '../../host/dispatch/inbound-event-processor.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const logger = pino({ level: 'silent' });
let database: TestDatabase;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  const [workflow] = await database.db('workflows').insert({ name: 'Slow', current_version: 1 }).returning('id');
  [{ id: sourceId }] = await database.db('sources')
    .insert({ ref: 'ref-heartbeat', name: 'Platform', channel: 'sample', settings: '{}', default_workflow_id: workflow.id })
    .returning('id');
});
after(() => database.close());

async function insertEvent(eventId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const [row] = await database.db('inbound_events')
    .insert({ source_id: sourceId, event_id: eventId, sender_foreign_id: `sender-${eventId}`, event: JSON.stringify({ eventId }), ...fields })
    .returning('id');
  return row.id;
}

const claimAgeMs = async (id: string) =>
  Number((await database.db('inbound_events').where({ id }).first(database.db.raw('extract(epoch from now() - claimed_at) * 1000 AS age'))).age);

test('held claims are renewed every interval, only under their own token, and no more once released', async () => {
  const heartbeat = new ClaimHeartbeat(database.db, 50, logger);
  const token = '00000000-0000-4000-8000-0000000000a1';
  const held = await insertEvent('beat-held', { status: 'running', claim_token: token, claimed_at: new Date(Date.now() - 60_000) });
  const taken = await insertEvent('beat-taken', { status: 'running', claim_token: '00000000-0000-4000-8000-0000000000a2', claimed_at: new Date(Date.now() - 60_000) });
  heartbeat.hold(held, token);
  heartbeat.hold(taken, '00000000-0000-4000-8000-0000000000ff'); // another attempt took it over meanwhile
  await sleep(200);
  assert.ok((await claimAgeMs(held)) < 1_000, 'renewed');
  assert.ok((await claimAgeMs(taken)) > 50_000, 'a claim whose token changed hands is not renewed');

  heartbeat.release(held);
  heartbeat.release(taken);
  await database.db('inbound_events').where({ id: held }).update({ claimed_at: new Date(Date.now() - 60_000) });
  await sleep(150);
  assert.ok((await claimAgeMs(held)) > 50_000, 'released: no longer renewed');
});

test('a run that outlasts the claim timeout keeps its event: another instance finds it busy, not abandoned', async () => {
  // The run takes 700 ms against a claim timeout of 300 ms.
  const slowRun = {
    workflows: { versionDocument: async () => ({}) },
    conversations: { enter: async () => ({ subscriber: { id: 'sub-1', foreignId: 'u1' }, threadId: 'thread-1' }) },
    runner: { run: async () => (await sleep(700), { status: 'completed', error: null }) },
  };
  const processor = (extra: object = {}) =>
    new InboundEventProcessor({ db: database.db, claimTimeoutMs: 300, endRunMemory: async () => undefined, logger, ...extra } as unknown as ConstructorParameters<typeof InboundEventProcessor>[0]);
  const id = await insertEvent('slow-run');
  const running = processor(slowRun).process(id, { number: 1, maxAttempts: 3 });
  await sleep(500);
  await assert.rejects(processor().process(id, { number: 1, maxAttempts: 3 }), { code: 'BOT_ERR_INBOUND_EVENT_BUSY' });
  assert.equal(await running, 'handled');
  assert.equal((await database.db('inbound_events').where({ id }).first()).status, 'done');
});
