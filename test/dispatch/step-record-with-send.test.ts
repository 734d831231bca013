import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeDue, waitForRetry } from '../support/claim-events.ts';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

// The greeting's memory write and its step's record commit in the statement that claims the
// greeting's reply, one round trip for both; the reply is worded from the memory as it will be
// stored. When a definition changed under that write meanwhile, nothing is sent until the write
// is made against the current definition.

let h: ConversationHarness;
before(async () => {
  h = await ConversationHarness.start();
  const db = h.app.database.db;
  // Which transaction inserted each reply's record: marking it sent rewrites its `xmin`.
  await db.raw('CREATE TABLE test_send_claims (send_key text PRIMARY KEY, xid text NOT NULL)');
  await db.raw(`CREATE FUNCTION test_record_send_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO test_send_claims VALUES (NEW.send_key, (pg_current_xact_id()::text::bigint % 4294967296)::text); RETURN NEW; END $$`);
  await db.raw('CREATE TRIGGER test_send_claim AFTER INSERT ON outbound_messages FOR EACH ROW EXECUTE FUNCTION test_record_send_claim()');
});
after(() => h.close());

async function eventRow(eventId: string): Promise<{ id: string; status: string }> {
  const row = await h.app.database.db('inbound_events').where({ source_id: h.source.id, event_id: eventId }).first('id', 'status');
  assert.ok(row, `no inbound event ${eventId}`);
  return row;
}

/** The transactions that wrote the event's memory step, the subscriber's profile and the reply's record. */
async function writers(eventId: string, sender: string): Promise<{ step: string; memory: string; claim: string }> {
  const db = h.app.database.db;
  const event = await eventRow(eventId);
  const step = await db('workflow_run_steps as s').join('workflow_runs as r', 'r.id', 's.run_id')
    .where({ 'r.inbound_event_id': event.id, 's.task': 'remember_name', 'r.status': 'succeeded' }).first<{ xmin: string }>(db.raw('s.xmin::text'));
  const memory = await profileRow(sender);
  const claim = await db('test_send_claims as c').join('outbound_messages as o', 'o.send_key', 'c.send_key').where('o.inbound_event_id', event.id).first('c.xid');
  return { step: step!.xmin, memory: memory!.xmin, claim: claim!.xid };
}

async function profileRow(sender: string): Promise<{ value: unknown; xmin: string } | undefined> {
  const db = h.app.database.db;
  const subscriber = await db('subscribers').where({ foreign_id: sender, source_id: h.source.id }).first('id');
  if (!subscriber) return undefined;
  return db('memory_records').where({ owner_id: subscriber.id }).first('value', db.raw('xmin::text'));
}

async function greet(eventId: string, sender: string, text: string): Promise<string> {
  assert.equal(await h.deliver([sampleEvent(eventId, sender, text)]), 200);
  assert.equal((await h.settled([eventId])).get(eventId)?.status, 'done');
  return replyTo(sender).at(-1)!;
}

/** The texts the platform received for `sender`, in order. */
function replyTo(sender: string): string[] {
  return h.platform.received.filter((message) => (message.body as { recipient: { id: string } }).recipient.id === sender).map((message) => (message.body as { message: { text: string } }).message.text);
}

async function changeProfileSchema(nameType: 'string' | 'number', extra: Record<string, unknown> = {}): Promise<void> {
  // Behind the definitions cache's back, as another instance's change whose notice is still on its way.
  const db = h.app.database.db;
  await db('memory_definitions').where({ slug: 'profile' }).update({
    schema: JSON.stringify({ type: 'object', properties: { name: { type: nameType, description: 'Name' }, ...extra } }),
    updated_at: db.raw("updated_at + interval '1 second'"),
  });
}

test("the memory step's record and write commit in the statement that claims the reply, and the reply reads the new value", async () => {
  // The first write reads the definitions; from the second on they are cached and the write is staged.
  assert.equal(await greet('carry-1', 'gus', 'my name is Gus'), 'Hello Gus!');
  assert.equal(await greet('carry-2', 'gus', 'my name is Gustav'), 'Hello Gustav!');
  const written = await writers('carry-2', 'gus');
  assert.equal(written.memory, written.step, 'the write and its step committed apart');
  assert.equal(written.claim, written.step, "the reply's record was claimed by a statement of its own");
  assert.deepEqual((await profileRow('gus'))?.value, { name: 'Gustav' });
});

test('a definition changed under the carried write: nothing is sent until the write is made again, then the reply goes once', async () => {
  assert.equal(await greet('stale-1', 'hal', 'my name is Hal'), 'Hello Hal!');
  await changeProfileSchema('string', { nick: { type: 'string', description: 'Nickname' } });
  try {
    assert.equal(await greet('stale-2', 'hal', 'my name is Halvard'), 'Hello Halvard!');
    assert.deepEqual(replyTo('hal'), ['Hello Hal!', 'Hello Halvard!'], 'the reply went once');
    assert.deepEqual((await profileRow('hal'))?.value, { name: 'Halvard' });
    const event = await eventRow('stale-2');
    const sends = await h.app.database.db('outbound_messages').where('inbound_event_id', event.id).select('status');
    assert.deepEqual(sends, [{ status: 'sent' }]);
  } finally {
    await changeProfileSchema('string');
  }
});

test('a definition changed under the carried write so that it is refused: the memory step fails, nothing is written or sent, and the event is retried', async () => {
  assert.equal(await greet('refused-1', 'ida', 'my name is Ida'), 'Hello Ida!');
  await changeProfileSchema('number');
  try {
    assert.equal(await h.deliver([sampleEvent('refused-2', 'ida', 'my name is Idalia')]), 200);
    await waitForRetry(h.app.database.db, 'refused-2', 1);
    const event = await eventRow('refused-2');
    assert.deepEqual(await h.app.database.db('outbound_messages').where('inbound_event_id', event.id).select('id'), [], 'a reply was recorded');
    assert.deepEqual(replyTo('ida'), ['Hello Ida!'], 'a reply was sent');
    assert.deepEqual((await profileRow('ida'))?.value, { name: 'Ida' }, 'the refused value was written');
    const steps = await h.app.database.db('workflow_run_steps as s').join('workflow_runs as r', 'r.id', 's.run_id')
      .where('r.inbound_event_id', event.id).select('s.task', 's.status', h.app.database.db.raw("s.error->>'code' AS code"));
    assert.deepEqual(steps, [{ task: 'remember_name', status: 'failed', code: 'BOT_ERR_MEMORY_VALUE_INVALID' }]);
  } finally {
    await changeProfileSchema('string');
  }
  await makeDue(h.app.database.db, ['refused-2']);
  assert.equal((await h.settled(['refused-2'], 20_000)).get('refused-2')?.status, 'done');
  assert.deepEqual(replyTo('ida'), ['Hello Ida!', 'Hello Idalia!']);
});
