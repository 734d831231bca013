import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
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
