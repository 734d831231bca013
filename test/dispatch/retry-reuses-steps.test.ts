import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeDue, waitForRetry } from '../support/claim-events.ts';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

let h: ConversationHarness;
before(async () => {
  h = await ConversationHarness.start();
});
after(() => h.close());

test('a retried run reuses the steps its event already completed: a memory write happens once, not once per attempt', async () => {
  const definition = await h.app.request('POST', '/api/memory-definitions', {
    as: 'admin',
    body: { name: 'Visits', slug: 'visits', scope: 'global', schema: { type: 'object', properties: { count: { type: 'integer', description: 'Messages so far' } } } },
  });
  assert.equal(definition.status, 201, definition.text);
  const yaml = [
    'defs:',
    '  count_visit:',
    '    kind: task',
    '    action: update_memory',
    '    inputs:',
    '      memory:',
    '        visits:',
    '          count: "=($exists($context.memory.visits.count) ? $context.memory.visits.count : 0) + 1"',
    '  answer:',
    '    kind: task',
    '    action: send_text_message',
    '    inputs:',
    '      text: "=\'visit #\' & $string($context.memory.visits.count)"',
    'flow:',
    '  - do: count_visit',
    '  - do: answer',
  ].join('\n');
  const workflow = await h.app.request('POST', '/api/workflows', { as: 'admin', body: { name: 'Counter', yaml } });
  assert.equal(workflow.status, 201, workflow.text);

  h.platform.failNext.push(503);
  const before = h.platform.received.length;
  assert.equal(await h.deliver([sampleEvent('count-1', 'ivy', 'hi')], `/api/webhook/${h.source.ref}/${workflow.body.id}`), 200);
  // The run fails at its send, after the memory write; time passes and the retry is due.
  await waitForRetry(h.app.database.db, 'count-1', 1);
  await makeDue(h.app.database.db, ['count-1']);
  const [reply] = (await h.platform.waitFor(before + 1, 20_000)).slice(before);
  assert.equal(reply!.body.message.text, 'visit #1', 'the retry did not count the visit again');
  const [row] = [...(await h.settled(['count-1'], 20_000)).values()];
  assert.equal(row!.status, 'done');
  const [record] = await h.app.database.db('memory_records as r').join('memory_definitions as d', 'd.id', 'r.definition_id').where('d.slug', 'visits').select('r.value');
  assert.deepEqual(record!.value, { count: 1 });

  const runs = await h.app.request('GET', `/api/runs?workflowId=${workflow.body.id}`, { as: 'viewer' });
  assert.deepEqual(runs.body.items.map((run: { status: string }) => run.status).sort(), ['failed', 'succeeded']);
  const succeeded = runs.body.items.find((run: { status: string }) => run.status === 'succeeded');
  const retried = await h.app.request('GET', `/api/runs/${succeeded.id}`, { as: 'viewer' });
  assert.deepEqual(retried.body.steps.map((step: { task: string; reused: boolean }) => [step.task, step.reused]), [['count_visit', true], ['answer', false]]);
});
