import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RunRecords } from '../../host/workflows/runtime/run-records.ts';
import { makeDue, waitForRetry } from '../support/claim-events.ts';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

let h: ConversationHarness;
before(async () => {
  h = await ConversationHarness.start();
});
after(() => h.close());

/** The transaction that last wrote each row (`xmin`): rows written by one statement share it. */
async function writers(eventId: string): Promise<{ event: string; runs: { status: string; xmin: string; steps: { task: string; xmin: string }[] }[] }> {
  const db = h.app.database.db;
  const event = await db('inbound_events').where({ source_id: h.source.id, event_id: eventId }).first<{ id: string; xmin: string }>(db.raw('id, xmin::text'));
  assert.ok(event, `no inbound event ${eventId}`);
  const runs: { id: string; status: string; xmin: string }[] = await db('workflow_runs').where('inbound_event_id', event.id).orderBy('started_at').select('id', 'status', db.raw('xmin::text'));
  return {
    event: event.xmin,
    runs: await Promise.all(runs.map(async (run) => ({
      status: run.status,
      xmin: run.xmin,
      steps: await db('workflow_run_steps').where('run_id', run.id).orderBy('position').select('task', db.raw('xmin::text')),
    }))),
  };
}

test('a live run ends, with its last step, in the statement that records its event done: one commit for all three', async () => {
  assert.equal(await h.deliver([sampleEvent('end-1', 'ada', 'my name is Ada')]), 200);
  assert.equal((await h.settled(['end-1'])).get('end-1')?.status, 'done');
  const written = await writers('end-1');
  assert.equal(written.runs.length, 1);
  const [run] = written.runs;
  assert.equal(run!.status, 'succeeded');
  assert.equal(run!.xmin, written.event, 'the run was ended by a statement of its own');
  const steps = run!.steps;
  assert.ok(steps.length >= 2, 'the greeting workflow has two steps');
  assert.equal(steps.at(-1)!.xmin, written.event, 'the last step was recorded by a statement of its own');
  // Earlier steps are each committed before the next step starts, so a retry can reuse them.
  for (const step of steps.slice(0, -1)) assert.notEqual(step.xmin, written.event, `step ${step.task} was recorded late`);
  // The reply the last step sent is marked sent, and enters the history, in that same statement.
  assert.deepEqual(await replies('end-1'), [{ status: 'sent', xmin: written.event, history: [written.event] }]);
});

/** Each reply of the event: its status, the transaction that marked it, and those of its history entries. */
async function replies(eventId: string): Promise<{ status: string; xmin: string; history: string[] }[]> {
  const db = h.app.database.db;
  const rows: { status: string; xmin: string; thread_id: string; text: string }[] = await db('outbound_messages as o')
    .join('inbound_events as e', 'e.id', 'o.inbound_event_id')
    .where({ 'e.source_id': h.source.id, 'e.event_id': eventId })
    .orderBy('o.send_key')
    .select('o.status', db.raw('o.xmin::text'), 'o.thread_id', db.raw("o.envelope->'data'->>'text' AS text"));
  return Promise.all(rows.map(async ({ status, xmin, thread_id, text }) => ({
    status,
    xmin,
    history: (await db('conversation_messages').where({ thread_id, direction: 'out', text }).select(db.raw('xmin::text'))).map((row: { xmin: string }) => row.xmin),
  })));
}

test('a reply sent by an earlier step is marked sent with that step\'s record, before the next step starts', async () => {
  const yaml = [
    'defs:',
    '  first:',
    '    kind: task',
    '    action: send_text_message',
    '    inputs:',
    '      text: "one for end-3"',
    '  second:',
    '    kind: task',
    '    action: send_text_message',
    '    inputs:',
    '      text: "two for end-3"',
    'flow:',
    '  - do: first',
    '  - do: second',
  ].join('\n');
  const workflow = await h.app.request('POST', '/api/workflows', { as: 'admin', body: { name: 'Two replies', yaml } });
  assert.equal(workflow.status, 201, workflow.text);
  assert.equal(await h.deliver([sampleEvent('end-3', 'cy', 'hi')], `/api/webhook/${h.source.ref}/${workflow.body.id}`), 200);
  assert.equal((await h.settled(['end-3'])).get('end-3')?.status, 'done');
  const written = await writers('end-3');
  const [first, second] = written.runs[0]!.steps;
  assert.notEqual(first!.xmin, written.event);
  assert.equal(second!.xmin, written.event);
  assert.deepEqual(await replies('end-3'), [
    { status: 'sent', xmin: first!.xmin, history: [first!.xmin] },
    { status: 'sent', xmin: written.event, history: [written.event] },
  ]);
});

test('a failed run ends, with its failing step, in the statement that queues its event for a retry', async () => {
  h.platform.failNext.push(503);
  assert.equal(await h.deliver([sampleEvent('end-2', 'bea', 'my name is Bea')]), 200);
  await waitForRetry(h.app.database.db, 'end-2', 1);
  const failed = await writers('end-2');
  assert.equal(failed.runs.length, 1);
  assert.equal(failed.runs[0]!.status, 'failed');
  assert.equal(failed.runs[0]!.xmin, failed.event);
  assert.equal(failed.runs[0]!.steps.at(-1)!.xmin, failed.event);

  await makeDue(h.app.database.db, ['end-2']);
  assert.equal((await h.settled(['end-2'], 20_000)).get('end-2')?.status, 'done');
  const retried = await writers('end-2');
  assert.deepEqual(retried.runs.map((run) => run.status), ['failed', 'succeeded']);
  assert.equal(retried.runs[1]!.xmin, retried.event);
});

test("a run's end written again, its first answer lost, neither fails nor adds the reply to the history twice", async () => {
  assert.equal(await h.deliver([sampleEvent('end-4', 'dee', 'my name is Dee')]), 200);
  assert.equal((await h.settled(['end-4'])).get('end-4')?.status, 'done');
  const db = h.app.database.db;
  const event = await db('inbound_events').where({ source_id: h.source.id, event_id: 'end-4' }).first('id');
  const run = await db('workflow_runs').where('inbound_event_id', event.id).first('id', 'thread_id');
  const last = await db('workflow_run_steps').where('run_id', run.id).orderBy('position', 'desc').first();
  const reply = await db('outbound_messages').where('inbound_event_id', event.id).first('id', 'envelope', 'sent_at', 'mid');
  const history = () => db('conversation_messages').where({ thread_id: run.thread_id, direction: 'out' }).count<{ count: string }[]>({ count: '*' });
  const before = Number((await history())[0]!.count);

  await new RunRecords(db).end({
    runId: run.id,
    status: 'succeeded',
    error: null,
    finishedAt: new Date(),
    lastStep: {
      runId: run.id,
      step: { position: last.position, task: last.task, action: last.action, status: last.status, reused: false, inputs: last.inputs, output: last.output, error: null, startedAt: last.started_at.toISOString(), finishedAt: last.finished_at.toISOString() },
      sentReplies: [{ id: reply.id, mid: reply.mid ?? undefined, sentAt: reply.sent_at, runId: run.id, threadId: run.thread_id, envelope: reply.envelope }],
    },
  });
  assert.equal(Number((await history())[0]!.count), before, 'the reply entered the history again');
  assert.equal((await db('workflow_run_steps').where('run_id', run.id)).length, last.position + 1);
});

test("a step's replies enter the history in the order they were sent", async () => {
  // Past the sample channel's 2,000 characters, one reply goes as several parts, one step's sends.
  const parts = ['first', 'second', 'third'].map((word) => `${'x'.repeat(1_500)} ${word}`);
  const yaml = ['defs:', '  long:', '    kind: task', '    action: send_text_message', '    inputs:', `      text: ${JSON.stringify(parts.join(' '))}`, 'flow:', '  - do: long'].join('\n');
  const workflow = await h.app.request('POST', '/api/workflows', { as: 'admin', body: { name: 'Long reply', yaml } });
  assert.equal(workflow.status, 201, workflow.text);
  assert.equal(await h.deliver([sampleEvent('end-5', 'eve', 'hi')], `/api/webhook/${h.source.ref}/${workflow.body.id}`), 200);
  assert.equal((await h.settled(['end-5'])).get('end-5')?.status, 'done');
  const db = h.app.database.db;
  const event = await db('inbound_events').where({ source_id: h.source.id, event_id: 'end-5' }).first('id');
  const run = await db('workflow_runs').where('inbound_event_id', event.id).first('thread_id');
  const history: { text: string }[] = await db('conversation_messages').where({ thread_id: run.thread_id, direction: 'out' }).orderBy('id').select('text');
  assert.deepEqual(history.map(({ text }) => text.trim().split(' ').at(-1)), ['first', 'second', 'third']);
});

/**
 * The transaction that inserted each run of the event (a trigger keeps it: the run's end rewrites
 * its `xmin`), and the one that recorded the event's message in its thread's history.
 */
async function startWriters(eventId: string): Promise<{ message: string; runs: string[] }> {
  const db = h.app.database.db;
  const event = await db('inbound_events').where({ source_id: h.source.id, event_id: eventId }).first('id');
  const message = await db('conversation_messages').where({ inbound_event_id: event.id, direction: 'in' }).first<{ xmin: string }>(db.raw('xmin::text'));
  const runs: { xid: string }[] = await db('test_run_starts as s').join('workflow_runs as r', 'r.id', 's.run_id').where('r.inbound_event_id', event.id).select('s.xid');
  return { message: message!.xmin, runs: runs.map(({ xid }) => xid) };
}

test("a live run starts in the statement that enters its conversation: the run's row and the event's message commit together", async () => {
  const db = h.app.database.db;
  await db.raw(`CREATE TABLE IF NOT EXISTS test_run_starts (run_id uuid PRIMARY KEY, xid text NOT NULL)`);
  // xmin is the transaction id's low 32 bits.
  await db.raw(`CREATE OR REPLACE FUNCTION test_record_run_start() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO test_run_starts VALUES (NEW.id, (pg_current_xact_id()::text::bigint % 4294967296)::text); RETURN NEW; END $$`);
  await db.raw('CREATE OR REPLACE TRIGGER test_run_start AFTER INSERT ON workflow_runs FOR EACH ROW EXECUTE FUNCTION test_record_run_start()');
  try {
    // A new sender (described by the channel first, then entering), then the same sender again.
    for (const id of ['start-1', 'start-2']) {
      assert.equal(await h.deliver([sampleEvent(id, 'flo', `my name is Flo ${id}`)]), 200);
      assert.equal((await h.settled([id])).get(id)?.status, 'done');
      const written = await startWriters(id);
      assert.deepEqual(written.runs, [written.message], `${id}: the run was started by a statement of its own`);
    }
  } finally {
    await db.raw('DROP TRIGGER test_run_start ON workflow_runs');
  }
});
