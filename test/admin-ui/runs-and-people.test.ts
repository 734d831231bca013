import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expect, expectUrl } from './expect-page.ts';

// Issue 23, runs and people: filtered runs, readable visitor names, plain errors, a subscriber's
// page with their memory, and workflow versions compared and restored. One real `npm start`.
const skip = browserSkipReason();

const echo = (reply: string) => `description: Echoes every message
defs:
  reply:
    kind: task
    action: send_text_message
    inputs:
      text: '="${reply}" & $input.text'
flow:
  - do: reply
`;

/** What a failed send through an unreachable platform records (see plain-run-error.test.ts). */
const UNREACHABLE = {
  code: 'BOT_ERR_PLUGIN_THREW',
  message: "The channel's doSendMessage() threw ChannelError: The platform at https://chat.test could not be reached: https://chat.test could not be reached: connect ECONNREFUSED",
  details: { cause: { code: 'WEB_ERR_UNREACHABLE', message: 'The platform at https://chat.test could not be reached' } },
};

describe('runs and people', { skip }, () => {
  let admin: AdminHost;
  let workflowId: string;
  let visitorId: string;
  let adaId: string;
  let failedRunId: string;
  let recordId: string;
  before(async () => {
    admin = await startAdminHost();
    const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name: 'Echo', yaml: echo('You said: ') });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    workflowId = created.body.id;
    const saved = await admin.api('PUT', `/api/workflows/${workflowId}`, { yaml: echo('Heard: ') });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const definition = await admin.api<{ id: string }>('POST', '/api/memory-definitions', {
      name: 'Visitor',
      slug: 'visitor',
      scope: 'global',
      schema: { type: 'object', properties: { colour: { type: 'string', description: 'Favourite colour' } } },
    });
    assert.equal(definition.status, 201, JSON.stringify(definition.body));

    const db = admin.database.db;
    const [source] = await db('sources').insert({ ref: 'people-chat', name: 'Site chat', channel: 'web', settings: {} }).returning('id');
    [{ id: visitorId }] = await db('subscribers').insert({ source_id: source.id, foreign_id: 'session-v', data: {} }).returning('id');
    [{ id: adaId }] = await db('subscribers').insert({ source_id: source.id, foreign_id: 'session-a', first_name: 'Ada', last_name: 'Lovelace', data: {} }).returning('id');
    [{ id: recordId }] = await db('memory_records').insert({ definition_id: definition.body.id, owner_id: visitorId, scope_key: '', value: { colour: 'teal' } }).returning('id');
    const run = { workflow_id: workflowId, workflow_version: 2, mode: 'live', input: { text: 'hi' }, source_id: source.id };
    const [failed] = await db('workflow_runs').insert({ ...run, owner_id: visitorId, status: 'failed', error: UNREACHABLE }).returning('id');
    failedRunId = failed.id;
    const at = new Date();
    await db('workflow_run_steps').insert({ run_id: failedRunId, position: 0, task: 'reply', action: 'send_text_message', status: 'failed', error: UNREACHABLE, started_at: at, finished_at: at });
    await db('workflow_runs').insert([
      { ...run, owner_id: visitorId, status: 'succeeded' },
      { ...run, owner_id: adaId, status: 'succeeded' },
      { ...run, owner_id: adaId, status: 'failed', error: { code: 'BOT_ERR_AI_TIMEOUT', message: 'timed out' } },
    ]);

    await admin.page.goto(await admin.loginLink());
    await expect(admin.page.getByText('admin (admin)')).visible();
  });
  after(() => admin?.close());

  test('runs filter by status and subscriber, the URL keeps the filters, and a web visitor has a readable name', async () => {
    const { page } = admin;
    const visitor = `Web visitor ${visitorId.slice(0, 4)}`;
    await page.goto(`${admin.host.url}/runs`);
    await expect(page.getByRole('link', { name: visitor }).first()).visible();
    assert.equal(await page.getByRole('row').filter({ hasText: visitorId }).count(), 0, 'no row shows the raw id as the name');

    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await expectUrl(page, /[?&]status=failed/);
    await expect(page.locator('tbody tr')).contains('failed');
    await until(async () => (await page.locator('tbody tr').count()) === 2, 'two failed runs');

    await page.getByRole('button', { name: `Only the runs of ${visitor}` }).first().click();
    await expectUrl(page, new RegExp(`ownerId=${visitorId}`));
    await expect(page.getByLabel('Subscriber filter')).contains(visitor);
    await until(async () => (await page.locator('tbody tr').count()) === 1, "one failed run of the visitor's");

    await page.reload();
    await expect(page.getByLabel('Subscriber filter')).contains(visitor);
    assert.equal(await page.getByLabel('Status', { exact: true }).inputValue(), 'failed');
    await until(async () => (await page.locator('tbody tr').count()) === 1, 'the filters survive a reload');
    await expect(page.locator('tbody tr .run-error-summary')).contains('Step "reply" failed because the platform could not be reached');

    await page.getByLabel('Search runs').fill('Ada');
    await expectUrl(page, /[?&]q=Ada/);
    await expect(page.getByText('No run matches these filters.')).visible();
    await page.getByRole('button', { name: "Show every subscriber's runs" }).click();
    await until(async () => (await page.locator('tbody tr').count()) === 1, "Ada's failed run");
    await expect(page.locator('tbody tr')).contains('Ada Lovelace');
    await saveScreenshot(page, 'runs-filtered');
  });

  test("a failed run's error is one plain sentence, with the technical chain folded under it", async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/runs/${failedRunId}`);
    const error = page.locator('.facts .run-error');
    await expect(error.locator('.plain-error')).text(
      'Step "reply" failed because the platform could not be reached; check the network and the source\'s settings (address, token), then retry the event from Dead letters.',
    );
    const chain = error.locator('.error-chain ol');
    assert.equal(await chain.isVisible(), false, 'the chain is folded');
    await error.getByText('Technical details').click();
    await expect(chain).visible();
    assert.deepEqual(await chain.locator('li').allTextContents(), [
      "The channel's doSendMessage() threw ChannelError",
      'The platform at https://chat.test could not be reached',
      'connect ECONNREFUSED',
    ]);
    await saveScreenshot(page, 'run-plain-error');
    await page.getByRole('link', { name: `Web visitor ${visitorId.slice(0, 4)}` }).click();
    await expectUrl(page, new RegExp(`/subscribers/${visitorId}$`));
  });

  test("a subscriber's page shows their memory by definition; a record is edited and erased", async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/subscribers`);
    await page.getByRole('link', { name: `Web visitor ${visitorId.slice(0, 4)}` }).click();
    await expect(page.getByRole('heading', { name: `Web visitor ${visitorId.slice(0, 4)}` })).visible();
    const group = page.getByRole('region', { name: 'Memory visitor' });
    await expect(group.locator('pre.json')).contains('"teal"');

    await group.getByRole('button', { name: 'Edit' }).click();
    await group.getByLabel('Value of visitor (JSON)').fill('{ "colour": 7 }');
    await group.getByRole('button', { name: 'Save' }).click();
    await expect(group.getByRole('alert')).contains('does not match its schema');
    await group.getByLabel('Value of visitor (JSON)').fill('{ "colour": "amber" }');
    await group.getByRole('button', { name: 'Save' }).click();
    await expect(group.locator('pre.json')).contains('"amber"');
    assert.deepEqual((await admin.api<{ value: unknown }>('GET', `/api/memory-records/${recordId}`)).body.value, { colour: 'amber' });
    await saveScreenshot(page, 'subscriber-page');

    await group.getByRole('button', { name: 'Erase' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Erase' }).click();
    await expect(page.getByText('Nothing remembered about them.')).visible();
    assert.equal((await admin.api('GET', `/api/memory-records/${recordId}`)).status, 404);

    await page.getByRole('link', { name: /^Runs of / }).click();
    await expectUrl(page, new RegExp(`/runs\\?ownerId=${visitorId}$`));
    await until(async () => (await page.locator('tbody tr').count()) === 2, "the visitor's two runs");
  });

  test('two versions are compared line by line, and an old one is restored as a new version', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/${workflowId}`);
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByText('Compare versions').click();
    const diff = versions.getByRole('table', { name: 'Changes from v1 to v2' });
    await expect(diff.locator('tr[data-kind="removed"]')).contains(`text: '="You said: " & $input.text'`);
    await expect(diff.locator('tr[data-kind="added"]')).contains(`text: '="Heard: " & $input.text'`);
    assert.equal(await diff.locator('tr[data-kind="added"]').count(), 1, 'only the changed line');
    await saveScreenshot(page, 'workflow-version-diff');

    await versions.getByRole('button', { name: 'Restore v1 as a new version' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore as v3' }).click();
    await expectUrl(page, new RegExp(`/workflows/${workflowId}\\?version=3$`));
    await expect(page.getByRole('heading', { name: 'Echo (v3)' })).visible();
    const current = await admin.api<{ version: number; yaml: string }>('GET', `/api/workflows/${workflowId}`);
    assert.deepEqual([current.body.version, current.body.yaml], [3, echo('You said: ')]);
  });
});

/** Polls `holds` until it is true or fails after 10 s naming `what`. */
async function until(holds: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`expected ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
