import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expect, expectUrl } from './expect-page.ts';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';

// The panel's small rough edges (issue 15, item 4), on one real `npm start` and one page; the
// tests run in order (signed in by the first).
const skip = browserSkipReason();

/** A description as a hostile or careless channel author might write it. */
const HOSTILE_DESCRIPTION =
  'Sent to `{api_url}/messages`; see [the docs](https://docs.example/api) or [this](javascript:window.__clicked=1). ' +
  '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><b>bold?</b>';

describe('panel polish', { skip }, () => {
  let admin: AdminHost;
  before(async () => {
    admin = await startAdminHost();
  });
  after(() => admin?.close());

  test('the one-time login link and a pasted token both land on Workflows', async () => {
    const { page } = admin;
    await page.goto(await admin.loginLink());
    await expectUrl(page, `${admin.host.url}/workflows`);
    await expect(page.getByRole('heading', { name: 'Workflows' })).visible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').fill(admin.token('admin'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectUrl(page, `${admin.host.url}/workflows`);
    await saveScreenshot(page, 'polish-landing');
  });

  test('the Channels page shows each channel’s isolation tier', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'Channels' }).click();
    await expect(page.locator('tr[data-channel="sample"] td[data-isolation]')).text('sandbox');
    await expect(page.locator('tr[data-channel="web"] td[data-isolation]')).text('builtin');
    await saveScreenshot(page, 'polish-channels');
  });

  test('a fresh memory definition form shows no message until a field is left or a save is tried', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/memory/new`);
    await expect(page.getByLabel('Slug')).visible();
    // Past the slug check's debounce: a message would be there by now.
    await page.waitForTimeout(600);
    assert.equal(await page.locator('.field-error').count(), 0, 'nothing is shown before typing');
    await saveScreenshot(page, 'polish-memory-fresh');
    await page.getByLabel('Slug').focus();
    await page.getByLabel('Slug').blur();
    await expect(page.locator('#slug-error')).text('A slug is required');
    assert.equal(await page.locator('#name-error').count(), 0, 'the name was not left');

    await page.reload();
    await expect(page.getByLabel('Slug')).visible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('#slug-error')).text('A slug is required');
    await expect(page.locator('#name-error')).text('A name is required');
    await saveScreenshot(page, 'polish-memory-save-tried');
  });

  test('source settings fields use the form’s width, their descriptions render markdown, and errors wait for the field', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/sources/new`);
    await page.getByLabel('Channel').selectOption('sample');
    const apiUrl = page.getByLabel('API URL');
    // An endpoint setting's default is a hint: only what the operator types grants egress.
    await expect(apiUrl).value('');
    assert.equal(await apiUrl.getAttribute('placeholder'), 'https://platform.example/api');
    const field = await apiUrl.boundingBox();
    const form = await page.locator('.form').boundingBox();
    assert.ok(field && form && field.width >= form.width * 0.9, `API URL is ${field?.width} px wide in a ${form?.width} px form`);
    const description = page.locator('#root_api_url__description');
    await expect(description.locator('code')).text('{api_url}/messages');
    assert.doesNotMatch((await description.textContent()) ?? '', /`/, 'no raw backticks');

    assert.equal(await page.locator('.error-detail').count(), 0, 'no error before typing');
    await apiUrl.fill('ftp://platform.example');
    assert.equal(await page.locator('.error-detail').count(), 0, 'no error while typing');
    await apiUrl.blur();
    await expect(page.locator('#root_api_url__error')).contains('must match pattern');
    assert.equal(await page.locator('.error-detail').count(), 1, 'only the field left shows its error');
    await saveScreenshot(page, 'polish-source-form');
  });

  test('a description’s HTML is neither run nor rendered, and its links are safe', async () => {
    const { page } = admin;
    // The channel list as a careless plugin would describe its settings.
    await page.route('**/api/channel', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { items: { name: string; settingsSchema: { properties: Record<string, { description?: string }> } }[] };
      const sample = body.items.find((channel) => channel.name === 'sample')!;
      sample.settingsSchema.properties.tenant_id!.description = HOSTILE_DESCRIPTION;
      await route.fulfill({ response, json: body });
    });
    await page.goto(`${admin.host.url}/sources/new`);
    await page.getByLabel('Channel').selectOption('sample');
    const description = page.locator('#root_tenant_id__description');
    await expect(description.locator('code')).text('{api_url}/messages');
    assert.equal(await description.locator('script, img, b').count(), 0, 'no element from raw HTML');
    assert.equal(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined, 'nothing ran');
    const docs = description.getByRole('link', { name: 'the docs' });
    assert.equal(await docs.getAttribute('href'), 'https://docs.example/api');
    assert.equal(await docs.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await description.locator('a[href^="javascript"]').count(), 0, 'a javascript: link is not a link');
    await description.getByText('this', { exact: true }).click();
    assert.equal(await page.evaluate(() => (globalThis as { __clicked?: number }).__clicked), undefined);
    await saveScreenshot(page, 'polish-hostile-description');
    await page.unroute('**/api/channel');
  });

  test('Runs shows the subscriber’s name and links to the conversation of the run', async () => {
    const { page } = admin;
    const runId = await insertLiveRun(admin);
    await page.goto(`${admin.host.url}/runs`);
    const row = page.getByRole('row', { name: /Polished v1/ });
    await expect(row).contains('Ada Lovelace');
    assert.doesNotMatch((await row.textContent()) ?? '', /[0-9a-f]{8}-[0-9a-f]{4}-/, 'no raw owner id');
    await saveScreenshot(page, 'polish-runs');
    await row.getByRole('link', { name: 'Conversation of Ada Lovelace' }).click();
    await expectUrl(page, `${admin.host.url}/runs/${runId}#conversation`);
    const conversation = page.getByRole('region', { name: 'Conversation' });
    await expect(conversation.locator('li[data-direction="in"]')).contains('my name is Ada');
    await expect(conversation.locator('li[data-direction="out"]')).contains('Hello Ada!');
    await saveScreenshot(page, 'polish-run-conversation');
  });
});

/** A live run of a subscriber, with the two messages of its thread, as the dispatcher records them. */
async function insertLiveRun(admin: AdminHost): Promise<string> {
  const { db } = admin.database;
  const yaml = 'defs:\n  say:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: Hello\nflow:\n  - do: say\n';
  const workflow = await admin.api<{ id: string }>('POST', '/api/workflows', { name: 'Polished', yaml });
  assert.equal(workflow.status, 201);
  const [source] = await db('sources').insert({ ref: 'polish-shop', name: 'Polish shop', channel: 'sample', settings: {} }).returning('id');
  const [subscriber] = await db('subscribers')
    .insert({ source_id: source.id, foreign_id: 'u-ada', first_name: 'Ada', last_name: 'Lovelace', data: {} })
    .returning('id');
  const [thread] = await db('threads').insert({ subscriber_id: subscriber.id, source_id: source.id }).returning('id');
  await db('conversation_messages').insert([
    { thread_id: thread.id, direction: 'in', text: 'my name is Ada', message: {} },
    { thread_id: thread.id, direction: 'out', text: 'Hello Ada!', message: {} },
  ]);
  const [run] = await db('workflow_runs')
    .insert({
      workflow_id: workflow.body.id, workflow_version: 1, mode: 'live', owner_id: subscriber.id,
      source_id: source.id, thread_id: thread.id, status: 'succeeded', input: { text: 'my name is Ada' },
    })
    .returning('id');
  return run.id as string;
}
