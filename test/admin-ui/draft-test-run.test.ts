import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expectEditorText, setEditorText } from './code-editor.ts';
import { expect } from './expect-page.ts';
import { profileGreetingYaml } from './workflow-fixtures.ts';

// Issue 23: a test run runs what the editor shows, unsaved edits included. One real `npm start`.
const skip = browserSkipReason();

const SAVED_REPLY = 'Hello! What is your name?';
const DRAFT_REPLY = 'Welcome, stranger! Who are you?';

describe('a test run of unsaved edits', { skip }, () => {
  let admin: AdminHost;
  let workflowId: string;
  let savedYaml: string;
  before(async () => {
    admin = await startAdminHost();
    savedYaml = await profileGreetingYaml(admin);
    const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name: 'Greeting', yaml: savedYaml });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    workflowId = created.body.id;
    await admin.page.goto(await admin.loginLink());
    await expect(admin.page.getByText('admin (admin)')).visible();
  });
  after(() => admin?.close());

  test('runs the edited reply without saving it, says "unsaved draft", and the run is listed as a draft', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/${workflowId}`);
    await expect(page.getByRole('heading', { name: 'Greeting (v1)' })).visible();
    const panel = page.getByRole('region', { name: 'Test chat' });
    await expect(panel.getByRole('heading', { name: 'Test chat (v1)' })).visible();

    const edited = savedYaml.replace(SAVED_REPLY, DRAFT_REPLY);
    assert.notEqual(edited, savedYaml);
    await setEditorText(page, edited);
    await expectEditorText(page, edited);
    await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).visible();
    await expect(panel.getByRole('heading', { name: 'Test chat (unsaved draft)' })).visible();

    await panel.getByLabel('Message', { exact: true }).fill('hi');
    await panel.getByRole('button', { name: 'Run test' }).click();
    await expect(panel.getByRole('list', { name: 'Messages' })).contains(DRAFT_REPLY);
    await expect(panel.locator('.test-run-result')).contains('Ran the unsaved draft');
    await saveScreenshot(page, 'workflow-test-run-draft');

    const versions = await admin.api<{ total: number }>('GET', `/api/workflows/${workflowId}/versions`);
    assert.equal(versions.body.total, 1, 'nothing was saved');
    const current = await admin.api<{ yaml: string }>('GET', `/api/workflows/${workflowId}`);
    assert.equal(current.body.yaml, savedYaml);

    // Leaving with unsaved edits asks first: accept.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    const row = page.getByRole('row', { name: /Greeting v1/ });
    await expect(row.locator('.draft-badge')).text('draft');
    await row.getByRole('link').first().click();
    await expect(page.getByRole('heading', { name: /^Run / })).visible();
    await expect(page.locator('.facts .draft-badge')).text('draft');
  });
});
