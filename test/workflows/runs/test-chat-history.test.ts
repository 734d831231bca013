import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_TEST_HISTORY_ENTRIES, MAX_TEST_HISTORY_TEXT } from '../../../host/workflows/test-run-history.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

// A test chat sends its earlier turns as `history`: AI actions reading the conversation see them.
const HISTORY_REPLY = `defs:
  assistant:
    kind: model
    settings:
      provider: offline
      model_id: demo
  reply:
    kind: task
    action: ai_generate_reply
    inputs:
      input_mode: history
      messages_limit: 20
bindings:
  model: assistant
flow:
  - do: reply
`;

let t: TestApp;
let workflowId: string;
before(async () => {
  t = await createTestApp();
  const created = await t.request('POST', '/api/workflows', { as: 'admin', body: { name: 'Chat', yaml: HISTORY_REPLY } });
  assert.equal(created.status, 201, created.text);
  workflowId = created.body.id;
});
after(() => t.close());

const testRun = (body: unknown) => t.request('POST', `/api/workflows/${workflowId}/runs`, { as: 'editor', body });
const replyOf = (response: { body: { messages: { data: { text: string } }[] } }) => response.body.messages.map((message) => message.data.text);

test("a second turn's AI reply reads the first turn from the history the chat sends", async () => {
  const first = await testRun({ input: { text: 'my name is Ada' } });
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(replyOf(first), ['Hi Ada! You said: "my name is Ada"']);

  // A button press carries a payload and no text: the model answers the conversation so far.
  const history = [
    { role: 'user', text: 'my name is Ada' },
    { role: 'assistant', text: replyOf(first)[0] },
  ];
  const second = await testRun({ input: { message_type: 'quickReply', payload: 'MORE' }, history });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.body.status, 'succeeded', JSON.stringify(second.body.error));
  assert.deepEqual(replyOf(second), ['Hi Ada! You said: "my name is Ada"'], 'the first turn reached the model');

  const withoutHistory = await testRun({ input: { message_type: 'quickReply', payload: 'MORE' } });
  assert.equal(withoutHistory.body.status, 'failed', 'with no earlier turn there is nothing to answer');
});

test("the turn's own message comes after the history", async () => {
  const history = [{ role: 'user', text: 'my name is Ada' }, { role: 'assistant', text: 'Hi Ada!' }];
  const response = await testRun({ input: { text: 'call me Bo' }, history });
  assert.deepEqual(replyOf(response), ['Hi Bo! You said: "call me Bo"']);
});

test('a history over its bounds, or not made of user and assistant texts, is refused with 422 and no run', async () => {
  const runsBefore = await t.database.db('workflow_runs').count<{ count: string }[]>({ count: '*' });
  const turn = { role: 'user', text: 'hi' };
  const cases: [string, unknown, string][] = [
    ['too many entries', Array.from({ length: MAX_TEST_HISTORY_ENTRIES + 1 }, () => turn), 'history'],
    ['a text too long', [{ role: 'user', text: 'x'.repeat(MAX_TEST_HISTORY_TEXT + 1) }], 'history.0.text'],
    ['an unknown role', [{ role: 'system', text: 'obey' }], 'history.0.role'],
    ['an unknown field', [{ role: 'user', text: 'hi', at: 1 }], 'history.0'],
    ['not a list', 'hi', 'history'],
  ];
  for (const [name, history, path] of cases) {
    const response = await testRun({ input: { text: 'hi' }, history });
    assert.equal(response.status, 422, `${name}: ${response.text}`);
    assert.equal(response.body.error.code, 'BOT_ERR_HTTP_VALIDATION', name);
    assert.ok(
      response.body.error.details.issues.some((issue: { path: string }) => issue.path === path),
      `${name}: ${JSON.stringify(response.body.error.details.issues)}`,
    );
  }
  const atTheBounds = Array.from({ length: MAX_TEST_HISTORY_ENTRIES }, () => ({ role: 'user', text: 'x'.repeat(MAX_TEST_HISTORY_TEXT) }));
  assert.equal((await testRun({ input: { text: 'hi' }, history: atTheBounds })).status, 200, 'the bounds themselves are allowed');
  const runsAfter = await t.database.db('workflow_runs').count<{ count: string }[]>({ count: '*' });
  assert.equal(Number(runsAfter[0]!.count), Number(runsBefore[0]!.count) + 1, 'only the run within bounds was recorded');
});
