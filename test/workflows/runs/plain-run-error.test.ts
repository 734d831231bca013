import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { collapseChain, explainError } from '../../../host/workflows/runtime/plain-error.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

/** What a failed send through Telegram records: the sandbox's code, the channel's as the cause. */
const THREW = {
  code: 'BOT_ERR_PLUGIN_THREW',
  message:
    "The channel's doSendMessage() threw ChannelError: The platform at https://api.telegram.org could not be reached: https://api.telegram.org could not be reached: connect ECONNREFUSED 127.0.0.1:9",
  details: { cause: { code: 'TELEGRAM_ERR_UNREACHABLE', message: 'The platform at https://api.telegram.org could not be reached: https://api.telegram.org could not be reached: connect ECONNREFUSED 127.0.0.1:9' } },
};

test('a plugin error is told by the channel code of its cause: what failed, where, and what to do', () => {
  const explained = explainError(THREW, 'send_greeting');
  assert.equal(
    explained.summary,
    'Step "send_greeting" failed because the platform could not be reached; check the network and the source\'s settings (address, token), then retry the event from Dead letters.',
  );
  assert.equal(explained.code, 'BOT_ERR_PLUGIN_THREW', 'the stored code is kept');
});

test('a test run has no event to retry: its advice says to run the test again', () => {
  assert.match(explainError(THREW, 'send_greeting', 'test').summary, /; check the network and the source's settings \(address, token\), then run the test again\.$/);
});

test('the technical chain says each cause once', () => {
  assert.deepEqual(explainError(THREW).chain, [
    "The channel's doSendMessage() threw ChannelError",
    'The platform at https://api.telegram.org could not be reached',
    'connect ECONNREFUSED 127.0.0.1:9',
  ]);
  assert.deepEqual(collapseChain(['x failed', 'X FAILED']), ['x failed']);
  assert.deepEqual(collapseChain(['b: a b c']), ['a b c']);
});

test('known codes have their own sentence; an unknown one still says where and names the code', () => {
  assert.match(explainError({ code: 'BOT_ERR_MEMORY_VALUE_INVALID', message: 'bad' }, 'remember').summary, /^Step "remember" failed because the value to remember does not match/);
  assert.equal(
    explainError({ code: 'ACME_ERR_STRANGE', message: 'odd' }).summary,
    "The run failed because of an error the host has no plain words for (ACME_ERR_STRANGE); read the details below and the host's log.",
  );
});

let t: TestApp;
let runId: string;
before(async () => {
  t = await createTestApp();
  const db = t.database.db;
  [{ id: runId }] = await db('workflow_runs')
    .insert({ workflow_id: '00000000-0000-4000-8000-000000000001', workflow_version: 1, mode: 'test', owner_id: 'test:ada', status: 'failed', input: {}, error: THREW })
    .returning('id');
  const at = new Date();
  await db('workflow_run_steps').insert([
    { run_id: runId, position: 0, task: 'ask_name', action: 'send_text', status: 'succeeded', output: {}, started_at: at, finished_at: at },
    { run_id: runId, position: 1, task: 'send_greeting', action: 'send_text', status: 'failed', error: THREW, started_at: at, finished_at: at },
  ]);
});
after(() => t.close());

test('the runs list and a run detail give the plain sentence naming the failed step, and the chain', async () => {
  const list = await t.request('GET', '/api/runs?status=failed', { as: 'viewer' });
  const listed = list.body.items.find((run: { id: string }) => run.id === runId);
  assert.match(listed.error.summary, /^Step "send_greeting" failed because the platform could not be reached; .* then run the test again\.$/);
  assert.equal(listed.error.chain.length, 3);
  const detail = await t.request('GET', `/api/runs/${runId}`, { as: 'viewer' });
  assert.equal(detail.body.error.summary, listed.error.summary);
  assert.match(detail.body.steps[1].error.summary, /^Step "send_greeting" failed/);
  assert.equal(detail.body.steps[0].error, null);
});
