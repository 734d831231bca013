import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConversationHarness, PLATFORM_KEY, sampleEvent } from './conversation-harness.ts';

let h: ConversationHarness;
before(async () => {
  h = await ConversationHarness.start();
});
after(() => h.close());

test('a signed webhook runs the greeting workflow: the reply reaches the platform and the name is remembered', async () => {
  assert.equal(await h.deliver([sampleEvent('e2e-1', 'ada', 'Hi, my name is Ada')]), 200);
  const [first] = await h.platform.waitFor(1);
  assert.equal(first!.authorization, `Bearer ${PLATFORM_KEY}`);
  assert.deepEqual(first!.body.recipient, { id: 'ada' });
  assert.equal(first!.body.message.text, 'Hello Ada!');
  assert.ok(first!.idempotencyKey, 'each send carries an idempotency key');

  const [record] = await h.app.database.db('memory_records as r').join('memory_definitions as d', 'd.id', 'r.definition_id').where('d.slug', 'profile').select('r.value', 'r.owner_id');
  assert.deepEqual(record!.value, { name: 'Ada' });
  const subscriber = await h.app.database.db('subscribers').where({ id: record!.owner_id }).first();
  assert.equal(subscriber.foreign_id, 'ada');

  assert.equal(await h.deliver([sampleEvent('e2e-2', 'ada', 'hello again')]), 200);
  const messages = await h.platform.waitFor(2);
  assert.equal(messages[1]!.body.message.text, 'Hello Ada!', 'the second run read the remembered name');
  const statuses = await h.settled(['e2e-1', 'e2e-2']);
  assert.deepEqual([...statuses.values()].map((row) => row.status), ['done', 'done']);

  const runs = await h.app.request('GET', `/api/runs?workflowId=${h.workflowId}&mode=live`, { as: 'viewer' });
  assert.equal(runs.body.total, 2);
  const run = await h.app.request('GET', `/api/runs/${runs.body.items[1].id}`, { as: 'viewer' });
  assert.deepEqual(run.body.steps.map((step: { task: string; status: string }) => [step.task, step.status]), [['remember_name', 'succeeded'], ['greet', 'succeeded']]);
});

test('an inactive source, a missing workflow or a missing sender runs nothing: the event is skipped with its reason', async () => {
  const before = h.platform.received.length;
  // No sender: the sample channel decodes an event without `sender` as one without a sender foreign id.
  const { sender: _sender, ...noSender } = sampleEvent('skip-sender', 'x', 'hi');
  assert.equal(await h.deliver([noSender]), 200);
  const [noSenderRow] = [...(await h.settled(['skip-sender'])).values()];
  // The run rules are checked when the event is processed: each case settles before the next change.
  await h.app.request('PATCH', `/api/sources/${h.source.id}`, { as: 'admin', body: { active: false } });
  await h.deliver([sampleEvent('skip-inactive', 'bob', 'hi')]);
  await h.settled(['skip-inactive']);
  await h.app.request('PATCH', `/api/sources/${h.source.id}`, { as: 'admin', body: { active: true, defaultWorkflowId: null } });
  await h.deliver([sampleEvent('skip-workflow', 'bob', 'hi')]);
  await h.settled(['skip-workflow']);
  await h.app.request('PATCH', `/api/sources/${h.source.id}`, { as: 'admin', body: { defaultWorkflowId: h.workflowId } });

  const settled = await h.settled(['skip-inactive', 'skip-workflow']);
  assert.deepEqual(settled.get('skip-inactive'), { event_id: 'skip-inactive', status: 'skipped', reason: 'source inactive' });
  assert.equal(settled.get('skip-workflow')?.status, 'skipped');
  assert.match(settled.get('skip-workflow')!.reason!, /no workflow/);
  assert.deepEqual([noSenderRow!.status, noSenderRow!.reason], ['skipped', 'no sender foreign id']);
  assert.equal(h.platform.received.length, before, 'nothing was sent');
  const runs = await h.app.database.db('workflow_runs').whereIn('inbound_event_id', h.app.database.db('inbound_events').whereLike('event_id', 'skip-%').select('id'));
  assert.deepEqual(runs, []);
});

test('the same event delivered twice produces one reply', async () => {
  const before = h.platform.received.length;
  const event = sampleEvent('dup-1', 'carol', 'hello');
  assert.equal(await h.deliver([event]), 200);
  assert.equal(await h.deliver([event]), 200);
  await h.settled(['dup-1']);
  await h.platform.waitFor(before + 1);
  // The one event has finished; give a stray second run the time to show up.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(h.platform.received.length, before + 1);
});

test('20 messages of one subscriber reach the platform in order; two subscribers are served side by side', async () => {
  const before = h.platform.received.length;
  const ids: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    ids.push(`order-${i}`, `other-${i}`);
    assert.equal(await h.deliver([sampleEvent(`order-${i}`, 'dave', `message ${i} my name is Dave${i}`), sampleEvent(`other-${i}`, 'erin', `my name is Erin${i}`)]), 200);
  }
  await h.settled(ids, 30_000);
  const replies = (await h.platform.waitFor(before + 40)).slice(before);
  const toDave = replies.filter((message) => message.body.recipient.id === 'dave').map((message) => message.body.message.text);
  assert.deepEqual(toDave, Array.from({ length: 20 }, (_, i) => `Hello Dave${i}!`), 'each reply follows its own message, in order');
  const toErin = replies.filter((message) => message.body.recipient.id === 'erin').map((message) => message.body.message.text);
  assert.deepEqual(toErin, Array.from({ length: 20 }, (_, i) => `Hello Erin${i}!`));
});

test('a platform that fails a send gets the reply again on retry, once it recovers, and only once', async () => {
  const before = h.platform.received.length;
  h.platform.failNext.push(503);
  assert.equal(await h.deliver([sampleEvent('retry-1', 'frank', 'my name is Frank')]), 200);
  // The event's first retry comes after about e^1 ≈ 2.7 s.
  await h.platform.waitFor(before + 1, 20_000);
  const [row] = [...(await h.settled(['retry-1'], 20_000)).values()];
  assert.equal(row!.status, 'done');
  assert.equal(h.platform.received.length, before + 1);
  const sends = await h.app.database.db('outbound_messages').whereLike('send_key', `%`).where({ status: 'sent' }).whereIn('inbound_event_id', h.app.database.db('inbound_events').where({ event_id: 'retry-1' }).select('id'));
  assert.equal(sends.length, 1);
  assert.equal(sends[0].attempts, 2);
});

test('a workflow id in the webhook URL runs that workflow, even when the source has no default', async () => {
  await h.app.request('PATCH', `/api/sources/${h.source.id}`, { as: 'admin', body: { defaultWorkflowId: null } });
  try {
    const before = h.platform.received.length;
    assert.equal(await h.deliver([sampleEvent('by-url-1', 'gina', 'my name is Gina')], `/api/webhook/${h.source.ref}/${h.workflowId}`), 200);
    const [row] = [...(await h.settled(['by-url-1'])).values()];
    assert.equal(row!.status, 'done');
    assert.equal((await h.platform.waitFor(before + 1))[before]!.body.message.text, 'Hello Gina!');
  } finally {
    await h.app.request('PATCH', `/api/sources/${h.source.id}`, { as: 'admin', body: { defaultWorkflowId: h.workflowId } });
  }
});
