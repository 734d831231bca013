import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const WORKFLOW_A = '00000000-0000-4000-8000-00000000000a';
const WORKFLOW_B = '00000000-0000-4000-8000-00000000000b';
const unreachable = { code: 'TELEGRAM_ERR_UNREACHABLE', message: 'The platform at https://api.telegram.org could not be reached: connect ECONNREFUSED' };

let t: TestApp;
const runs: Record<string, string> = {};
let ada: string;
let visitor: string;
before(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [source] = await db('sources').insert({ ref: 'runs-filters', name: 'Shop', channel: 'sample', settings: {} }).returning('id');
  [{ id: ada }] = await db('subscribers').insert({ source_id: source.id, foreign_id: 'u-ada', first_name: 'Ada', last_name: 'Lovelace', data: {} }).returning('id');
  [{ id: visitor }] = await db('subscribers').insert({ source_id: source.id, foreign_id: 'u-anon', data: {} }).returning('id');
  const insert = async (name: string, row: Record<string, unknown>) => {
    const [inserted] = await db('workflow_runs')
      .insert({ workflow_id: WORKFLOW_A, workflow_version: 1, mode: 'live', status: 'succeeded', input: {}, ...row })
      .returning<{ id: string }[]>('id');
    runs[name] = inserted!.id;
  };
  await insert('adaOk', { owner_id: ada });
  await insert('adaFailed', { owner_id: ada, status: 'failed', error: unreachable, workflow_id: WORKFLOW_B });
  await insert('visitorOk', { owner_id: visitor });
  await insert('tested', { owner_id: 'test:grace', mode: 'test' });
});
after(() => t.close());

async function listed(query: string): Promise<string[]> {
  const response = await t.request('GET', `/api/runs?${query}`, { as: 'viewer' });
  assert.equal(response.status, 200, response.text);
  const byId = new Map(Object.entries(runs).map(([name, id]) => [id, name]));
  return response.body.items.map((run: { id: string }) => byId.get(run.id)).sort();
}

test("filters runs by owner: a subscriber's id, or a test owner", async () => {
  assert.deepEqual(await listed(`ownerId=${ada}`), ['adaFailed', 'adaOk']);
  assert.deepEqual(await listed('ownerId=test:grace'), ['tested']);
  assert.deepEqual(await listed(`ownerId=${ada}&status=failed`), ['adaFailed']);
  assert.deepEqual(await listed(`ownerId=${ada}&workflowId=${WORKFLOW_A}`), ['adaOk']);
});

test("searches the subscriber's name, a test owner and the error's code and message", async () => {
  assert.deepEqual(await listed('q=lovelace'), ['adaFailed', 'adaOk']);
  assert.deepEqual(await listed('q=ada%20love'), ['adaFailed', 'adaOk']);
  assert.deepEqual(await listed('q=grace'), ['tested']);
  assert.deepEqual(await listed('q=could%20not%20be%20reached'), ['adaFailed']);
  assert.deepEqual(await listed('q=telegram_err'), ['adaFailed']);
  assert.deepEqual(await listed('q=nobody-matches-this'), []);
});

test('searches a run id or its first digits, and a subscriber by the digits of "Web visitor 3f2a"', async () => {
  assert.deepEqual(await listed(`q=${runs.visitorOk}`), ['visitorOk']);
  assert.ok((await listed(`q=${runs.tested!.slice(0, 8)}`)).includes('tested'));
  assert.ok((await listed(`q=${encodeURIComponent(`Web visitor ${visitor.slice(0, 8)}`)}`)).includes('visitorOk'));
});

test('search text is matched literally (% and _ are not wildcards) and bounded in length', async () => {
  assert.deepEqual(await listed('q=%25'), []);
  assert.deepEqual(await listed('q=L_velace'), []);
  const long = await t.request('GET', `/api/runs?q=${'x'.repeat(101)}`, { as: 'viewer' });
  assert.equal(long.status, 422);
  assert.equal(long.body.error.code, 'BOT_ERR_HTTP_VALIDATION');
});
