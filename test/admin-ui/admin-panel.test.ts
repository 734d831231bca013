import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expect, expectUrl } from './expect-page.ts';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expectEditorText, setEditorText, workflowEditor } from './code-editor.ts';
import { ECHO_YAML } from './workflow-fixtures.ts';

// One real `npm start` and one browser page for the whole file; the tests run in order and
// build on each other (signed in once, the definition created before it is searched).
const skip = browserSkipReason();

describe('admin panel', { skip }, () => {
  let admin: AdminHost;
  before(async () => {
    admin = await startAdminHost();
    // A role an operator added beside the seeded ones (roles are cached for seconds, so it is
    // added before anyone signs in): the panel cannot know what it holds.
    await admin.database.db('roles').insert({ name: 'auditor', description: 'Reads channels and runs' });
    await admin.database.db('role_permissions').insert([{ role: 'auditor', permission: 'channel:read' }, { role: 'auditor', permission: 'run:read' }]);
  });
  after(() => admin?.close());

  test('the one-time login link signs the browser in and opens the panel on Workflows', async () => {
    const { page } = admin;
    await page.goto(await admin.loginLink());
    await expectUrl(page, `${admin.host.url}/workflows`);
    await expect(page.getByRole('heading', { name: 'Workflows' })).visible();
    await expect(page.getByText('admin (admin)')).visible();
    await page.getByRole('link', { name: 'Memory', exact: true }).click();
    await expect(page.getByText('No memory definitions yet.')).visible();
    await saveScreenshot(page, 'memory-empty');
  });

  test('a memory definition is created through the form: slug from the name, taken slug refused inline, 422 at its field', async () => {
    const { page } = admin;
    const taken = await admin.api('POST', '/api/memory-definitions', {
      name: 'Shipping Address',
      scope: 'global',
      schema: { type: 'object', properties: { city: { type: 'string', description: 'City' } } },
    });
    assert.equal(taken.status, 201);
    await page.getByRole('link', { name: 'New definition' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Shipping Address');
    await expect(page.getByLabel('Slug')).value('shipping_address');
    await expect(page.locator('#slug-error')).text('The slug "shipping_address" is already taken');
    assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), true);

    // A free slug by hand, but the name is taken: the server's 409 shows next to the name.
    await page.getByLabel('Slug').fill('shipping_address_2');
    await expect(page.locator('#slug-error')).hidden();
    await page.getByTestId('property-0').getByLabel('Property name').fill('street');
    await page.getByTestId('property-0').getByLabel('Property description').fill('Street');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('#name-error')).contains('already named "Shipping Address"');

    await page.getByLabel('Name', { exact: true }).fill('Customer Profile (v2)');
    await page.getByLabel('Slug').fill('customer_profile_v2');
    await expect(page.locator('#slug-error')).hidden();
    await page.getByTestId('property-0').getByLabel('Property description').fill('');
    await page.getByLabel('Scope').selectOption('thread');
    await page.getByLabel('TTL unit').selectOption({ label: 'hours' });
    await page.locator('input[name="ttl"]').fill('2');
    const first = page.getByTestId('property-0');
    await first.getByLabel('Property name').fill('first_name');
    await first.getByLabel('Property title').fill('First name');
    await page.getByRole('button', { name: 'Add property' }).click();
    const second = page.getByTestId('property-1');
    await second.getByLabel('Property name').fill('interests');
    await second.getByLabel('Property type').selectOption('array');
    await second.getByLabel('Item type').selectOption('string');
    await second.getByLabel('Property description').fill('What they like');
    await page.getByRole('button', { name: 'Save' }).click();
    // The first property has no description: the server's 422 names it, next to the schema.
    await expect(page.locator('#schema-error')).contains('schema.properties.first_name.description');
    await saveScreenshot(page, 'memory-form-422');

    await first.getByLabel('Property description').fill("The subscriber's first name");
    await first.getByLabel('Required').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectUrl(page, /\/workflows\/memory$/);
    const row = page.getByRole('row', { name: /Customer Profile \(v2\)/ });
    await expect(row).contains('customer_profile_v2');
    await expect(row).contains('2 hours');
    const stored = await admin.api<{ items: { slug: string; schema: unknown }[] }>('GET', '/api/memory-definitions?q=customer_profile_v2');
    assert.deepEqual(stored.body.items[0]?.schema, {
      type: 'object',
      properties: {
        first_name: { type: 'string', title: 'First name', description: "The subscriber's first name" },
        interests: { type: 'array', items: { type: 'string' }, description: 'What they like' },
      },
      required: ['first_name'],
      additionalProperties: false,
    });
    await saveScreenshot(page, 'memory-list');

    // Sorted by slug, descending, one per page.
    await page.goto(`${admin.host.url}/workflows/memory?limit=1`);
    await page.getByRole('button', { name: 'Slug' }).click();
    await page.getByRole('button', { name: 'Slug ▲' }).click();
    await expect(page.getByRole('button', { name: 'Slug ▼' })).visible();
    await expect(page.locator('table.list tbody')).contains('shipping_address');
    await expect(page.locator('.pager')).contains('1–1 of 2');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('.pager')).contains('2–2 of 2');
    await expect(page.locator('table.list tbody')).contains('customer_profile_v2');
    await page.goto(`${admin.host.url}/workflows/memory`);
  });

  test('search finds the definition, its TTL is edited, and it is deleted after a confirmation counting its records', async () => {
    const { page } = admin;
    await page.getByRole('searchbox', { name: 'Search memory definitions' }).fill('profile');
    await expect(page.getByRole('row', { name: /Shipping Address/ })).hidden();
    await page.getByRole('link', { name: 'Customer Profile (v2)' }).click();
    await expect(page.getByLabel('Name', { exact: true })).value('Customer Profile (v2)');
    await page.locator('input[name="ttl"]').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectUrl(page, /\/workflows\/memory(\?.*)?$/);
    await expect(page.getByRole('row', { name: /Customer Profile \(v2\)/ })).contains('permanent');

    const [definition] = await admin.database.db('memory_definitions').where({ slug: 'customer_profile_v2' }).select('id');
    await admin.database.db('memory_records').insert(['thread-1', 'thread-2'].map((thread) => ({
      definition_id: definition.id, owner_id: 'sub-1', thread_id: thread, scope_key: thread, value: JSON.stringify({ first_name: 'Ada' }),
    })));
    await page.getByRole('row', { name: /Customer Profile \(v2\)/ }).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).contains('and its 2 memory records');
    await saveScreenshot(page, 'memory-delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('row', { name: /Customer Profile \(v2\)/ })).hidden();
    const left = await admin.api<{ total: number }>('GET', '/api/memory-definitions?q=customer');
    assert.equal(left.body.total, 0);
  });

  test('a pasted viewer token signs in with create and delete disabled, and a 401 sends back to sign-in', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectUrl(page, /\/sign-in$/);
    await page.getByLabel('Token').fill(admin.token('viewer'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectUrl(page, /\/workflows$/);
    await page.getByRole('link', { name: 'Memory', exact: true }).click();
    assert.equal(await page.getByRole('button', { name: 'New definition' }).isDisabled(), true);
    assert.equal(await page.getByRole('row', { name: /Shipping Address/ }).getByRole('button', { name: 'Delete' }).isDisabled(), true);
    await saveScreenshot(page, 'memory-viewer');

    // A token the server refuses (wrong signature) ends the session at the first API call.
    const forged = `${admin.token('admin').slice(0, -4)}AAAA`;
    await page.evaluate((token) => localStorage.setItem('bot.token', token), forged);
    await page.reload();
    await expectUrl(page, /\/sign-in$/);
    await expect(page.getByText('Your session has ended; sign in again.')).visible();
    await page.goto(await admin.loginLink());
    await expectUrl(page, /\/workflows$/);
  });

  test('a channel is disabled and enabled again with its switch, and a rescan reports', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'Channels' }).click();
    const toggle = page.getByRole('switch', { name: 'Enable sample' });
    await expect(toggle).visible();
    assert.equal(await toggle.isChecked(), true);
    // The sample package runs in its sandboxed runner; the SDK's web channel in host threads.
    await expect(page.locator('tr[data-channel="sample"] td[data-isolation]')).contains('sandbox');
    await expect(page.locator('tr[data-channel="web"] td[data-isolation]')).contains('builtin');
    await toggle.click();
    await expect(page.locator('tr[data-channel="sample"]')).contains('disabled');
    assert.equal((await channelEnabled(admin, 'sample')), false);
    await saveScreenshot(page, 'channels-disabled');
    await toggle.click();
    await expect(page.locator('tr[data-channel="sample"]')).contains('enabled');
    assert.equal((await channelEnabled(admin, 'sample')), true);
    await page.getByRole('button', { name: 'Rescan' }).click();
    await expect(page.getByRole('status')).contains('Rescan:');
    await saveScreenshot(page, 'channels');
  });

  test('a source of the sample channel is created with its settings form, and its secret reads masked afterwards', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'Sources' }).click();
    await expect(page.getByText('No sources yet.')).visible();
    await page.getByRole('link', { name: 'New source' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Sample shop');
    await page.getByLabel('Channel').selectOption('sample');
    // An endpoint setting is a grant of egress: its default is a hint, never a value saved unseen.
    const apiUrl = page.getByLabel('API URL');
    await expect(apiUrl).value('');
    assert.equal(await apiUrl.getAttribute('placeholder'), 'https://platform.example/api');
    await apiUrl.fill('https://platform.example/api');
    const apiKey = page.getByLabel('API key');
    assert.equal(await apiKey.getAttribute('type'), 'password');
    await apiKey.fill('sk-live-secret');
    await page.getByLabel('Tenant id').fill('shop-1');
    await saveScreenshot(page, 'source-form');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectUrl(page, /\/sources\/[0-9a-f-]{36}$/);
    await expect(page.getByLabel('API key')).value('********');
    await expect(page.getByLabel('Tenant id')).value('shop-1');
    const [stored] = await admin.database.db('sources').where({ name: 'Sample shop' }).select('settings', 'ref');
    assert.equal(stored.settings.api_key, 'sk-live-secret', 'the real secret is stored; only responses mask it');
    assert.equal(stored.settings.api_url, 'https://platform.example/api');
    await expect(page.locator('#egress-origins')).contains('https://platform.example');
    await expect(page.getByLabel('Webhook URL', { exact: true })).value(`${admin.host.url}/api/webhook/${stored.ref}`);
    await saveScreenshot(page, 'source-saved');
    await page.getByRole('link', { name: 'Back to sources' }).click();
    await expect(page.getByRole('row', { name: /Sample shop/ })).contains('active');
    await saveScreenshot(page, 'sources');
  });

  test('a web source shows its chat page link, not a webhook URL, in the list and in its form', async () => {
    const { page } = admin;
    const created = await admin.api<{ ref: string }>('POST', '/api/sources', { name: 'Web chat', channel: 'web' });
    assert.equal(created.status, 201);
    const chatUrl = `${admin.host.url}/chat/${created.body.ref}`;
    await page.reload();
    const row = page.getByRole('row', { name: /Web chat/ });
    await expect(row.getByRole('link', { name: 'Open chat' })).visible();
    assert.equal(await row.getByRole('link', { name: 'Open chat' }).getAttribute('href'), chatUrl);
    await expect(page.getByLabel('Chat link of Web chat')).value(chatUrl);
    assert.equal(await page.getByLabel('Webhook URL of Web chat').count(), 0);
    await expect(page.getByLabel('Webhook URL of Sample shop')).visible();
    await page.getByRole('link', { name: 'Web chat', exact: true }).click();
    await expect(page.getByRole('link', { name: 'Open chat' })).visible();
    assert.equal(await page.getByLabel('Webhook URL', { exact: true }).count(), 0);
    await saveScreenshot(page, 'web-source');
    await page.getByRole('link', { name: 'Back to sources' }).click();
  });

  test('a source without a default workflow is marked, and a webhook to it is listed as skipped with its reason', async () => {
    const { page } = admin;
    const secret = 'whsec-admin-ui';
    const created = await admin.api<{ id: string; webhookUrl: string }>('POST', '/api/sources', {
      name: 'Unanswered shop',
      channel: 'sample',
      settings: { api_url: 'http://127.0.0.1:9/api', api_key: 'sk-unanswered', webhook_secret: secret },
    });
    assert.equal(created.status, 201);
    await page.reload();
    const row = page.getByRole('row', { name: /Unanswered shop/ });
    await expect(row.locator('.warning')).text('⚠ Warning: Webhooks to this source are accepted but not answered: set a default workflow.');
    await expect(row.getByRole('link', { name: 'set a default workflow for Unanswered shop' })).visible();
    assert.equal(await row.getByRole('link', { name: /skipped event/ }).count(), 0);

    const event = { id: 'evt-unanswered-1', timestamp: 1763800000000, sender: { id: 'sub-ui', first_name: 'Ui' }, recipient: { id: 'bot-1' }, message: { text: 'hello?' } };
    assert.equal(await admin.postSignedWebhook(created.body.webhookUrl, secret, [event]), 200);
    const settled = await admin.settledEvent('evt-unanswered-1');
    assert.equal(settled.status, 'skipped');
    await page.reload();
    await expect(row.getByRole('link', { name: '1 skipped event of Unanswered shop' })).visible();
    await saveScreenshot(page, 'sources-unanswered');

    await row.getByRole('link', { name: '1 skipped event of Unanswered shop' }).click();
    await expectUrl(page, `${admin.host.url}/skipped-events/${created.body.id}`);
    await expect(page.getByRole('heading', { name: 'Skipped events of Unanswered shop' })).visible();
    const skipped = page.getByRole('row', { name: /evt-unanswered-1/ });
    await expect(skipped).contains('Not answered: the source has no default workflow and the webhook URL named none.');
    await expect(skipped.getByRole('link', { name: 'Unanswered shop', exact: true })).visible();
    await saveScreenshot(page, 'skipped-events');
    // The source's form says the same next to the choice that fixes it.
    await skipped.getByRole('link', { name: 'Unanswered shop', exact: true }).click();
    await expect(page.locator('#default-workflow-hint')).contains('events are accepted but not answered');
    assert.equal(await page.getByLabel('Default workflow').getAttribute('aria-describedby'), 'default-workflow-hint');
    await page.getByRole('link', { name: 'Skipped events', exact: true }).click();
    await expect(page.getByRole('row', { name: /evt-unanswered-1/ })).visible();
    await page.getByRole('link', { name: 'Sources', exact: true }).click();
  });

  test('a workflow saved with an error shows the message at its line; fixed, it saves and a test run shows each step', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    await expect(page.getByText('No workflows yet.')).visible();
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Echo');
    // Select-all as the editor does it: the DOM holds only the lines in view, so `fill` can leave
    // the template's other lines behind.
    await setEditorText(page, ECHO_YAML.replace('- do: reply', '- do: replyy'));
    await expectEditorText(page, ECHO_YAML.replace('- do: reply', '- do: replyy'));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).visible();
    const problem = page.getByRole('list', { name: 'Problems' }).getByRole('listitem').first();
    await expect(problem).contains('Line 9, column 9 (flow.0.do)');
    const marker = page.locator('.cm-gutter-lint .cm-lint-marker-error');
    assert.equal(await marker.count(), 1);
    await expect(page.locator('.cm-lintRange-error')).text('replyy');
    const markerBox = await marker.boundingBox();
    const lineBox = await workflowEditor(page).locator('.cm-line').nth(8).boundingBox();
    assert.ok(markerBox && lineBox && Math.abs(markerBox.y + markerBox.height / 2 - (lineBox.y + lineBox.height / 2)) < 4, 'the marker is on line 9');
    await marker.hover();
    await expect(page.locator('.cm-tooltip-lint')).contains('No def is named "replyy"');
    await saveScreenshot(page, 'workflow-problem');

    await setEditorText(page, ECHO_YAML);
    await expect(page.getByRole('list', { name: 'Problems' })).hidden();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectUrl(page, /\/workflows\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Echo (v1)' })).visible();
    await page.getByLabel('Message', { exact: true }).fill('hi there');
    await page.getByRole('button', { name: 'Run test' }).click();
    const steps = page.getByRole('list', { name: 'Steps' });
    await expect(steps.locator('li[data-task="reply"]')).contains('succeeded');
    await expect(page.getByRole('list', { name: 'Messages' })).contains('You said: hi there');
    await saveScreenshot(page, 'workflow-test-run');

    // Saving again makes version 2; version 1 stays readable.
    await setEditorText(page, ECHO_YAML.replace('You said: ', 'Echo: '));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { name: 'Echo (v2)' })).visible();
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByRole('link', { name: 'v1' }).click();
    await expect(page.getByText('Viewing version 1; saving makes it version 3.')).visible();
    await expectEditorText(page, ECHO_YAML);
    await page.getByRole('link', { name: 'Back to workflows' }).click();
    await expect(page.getByRole('row', { name: /Echo/ })).contains('v2');
    await saveScreenshot(page, 'workflows');
  });

  test('the test run is listed under Runs with its steps, and a dead letter is retried', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'Runs' }).click();
    const row = page.getByRole('row', { name: /Echo v1/ });
    await expect(row).contains('succeeded');
    await saveScreenshot(page, 'runs');
    await row.getByRole('link').click();
    await expect(page.getByRole('list', { name: 'Steps' }).locator('li[data-task="reply"]')).contains('You said: hi there');
    await saveScreenshot(page, 'run-detail');
    await page.getByRole('link', { name: 'Dead letters' }).click();
    await expect(page.getByText('No dead letters')).visible();

    // A dead letter (every retry used) is queued again from the list.
    const [source] = await admin.database.db('sources').where({ name: 'Sample shop' }).select('id');
    await admin.database.db('inbound_events').insert({
      source_id: source.id, event_id: 'evt-dead-1', event: JSON.stringify({}), status: 'failed', reason: 'platform answered 500', attempts: 5,
    });
    await page.reload();
    const deadLetter = page.getByRole('row', { name: /evt-dead-1/ });
    await expect(deadLetter).contains('platform answered 500');
    await saveScreenshot(page, 'dead-letters');
    await deadLetter.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('No dead letters')).visible();
    const [retried] = await admin.database.db('inbound_events').where({ event_id: 'evt-dead-1' }).select('status', 'attempts');
    assert.notEqual(retried.status, 'failed');
  });

  test('a viewer sees every page with the actions its role lacks disabled; an admin deletes the workflow', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').fill(admin.token('viewer'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Channels' }).click();
    await expect(page.getByRole('switch', { name: 'Enable sample' })).visible();
    assert.equal(await page.getByRole('switch', { name: 'Enable sample' }).isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Rescan' }).isDisabled(), true);
    await page.getByRole('link', { name: 'Sources' }).click();
    assert.equal(await page.getByRole('button', { name: 'New source' }).isDisabled(), true);
    await page.getByRole('link', { name: 'Sample shop', exact: true }).click();
    await expect(page.getByLabel('API key')).value('********');
    assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), true);
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    assert.equal(await page.getByRole('button', { name: 'New workflow' }).isDisabled(), true);
    await page.getByRole('link', { name: 'Echo' }).click();
    await expect(page.getByRole('heading', { name: 'Echo (v2)' })).visible();
    for (const name of ['Save', 'Delete', 'Run test']) assert.equal(await page.getByRole('button', { name }).isDisabled(), true, name);
    await saveScreenshot(page, 'workflow-viewer');

    await page.goto(await admin.loginLink());
    await expectUrl(page, /\/workflows$/);
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    await page.getByRole('link', { name: 'Echo' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).contains('This deletes its 2 versions.');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No workflows yet.')).visible();
  });

  test('a role added beside the seeded ones gets exactly what it holds: the panel asks the API', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').fill(admin.token('auditor'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Channels' }).click();
    await expect(page.getByRole('switch', { name: 'Enable sample' })).visible();
    // Until the API answers, an unknown role's actions are enabled: these wait for its answer.
    await expect(page.getByRole('button', { name: 'Rescan' })).disabled();
    await expect(page.getByRole('switch', { name: 'Enable sample' })).disabled();
  });
});

async function channelEnabled(admin: AdminHost, name: string): Promise<boolean | undefined> {
  const channels = await admin.api<{ items: { name: string; enabled: boolean }[] }>('GET', '/api/channel');
  return channels.body.items.find((channel) => channel.name === name)?.enabled;
}
