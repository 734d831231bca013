import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { benchWorkflowYaml } from '../../scripts/bench/admin-editor/workflow-fixtures.ts';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { clickLineEnd, expectEditorText, workflowEditor } from './code-editor.ts';
import { expect, expectUrl } from './expect-page.ts';
import { ECHO_YAML } from './workflow-fixtures.ts';

// The editor at scale and on phones: Save stays in view with a 199-step workflow, the panel's
// menu folds away at 390 px, the chat page keeps its newest message in view when the viewport
// shrinks, and a draft follows its author to another browser. One `npm start`.
const skip = browserSkipReason();

describe('the workflow editor at scale and on phones', { skip }, () => {
  let admin: AdminHost;
  const contexts: BrowserContext[] = [];
  before(async () => {
    admin = await startAdminHost();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await admin?.close();
  });

  /** A fresh browser (its own storage), signed in through a login link as `role`'s subject. */
  async function signedInPage(viewport: { width: number; height: number }, role = 'admin'): Promise<Page> {
    const context = await admin.browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    // Edits are left unsaved on purpose: the "Leave site?" prompt is accepted.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(await admin.loginLink(role));
    await expectUrl(page, /\/workflows/);
    return page;
  }

  async function createWorkflow(name: string, yaml: string): Promise<string> {
    const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name, yaml });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id;
  }

  /** Whether the whole element lies inside the viewport and is what the page shows at its centre (nothing covers it). */
  async function inView(page: Page, locator: Locator): Promise<boolean> {
    const box = await locator.boundingBox();
    const viewport = page.viewportSize()!;
    if (!box || box.y < 0 || box.x < 0 || box.y + box.height > viewport.height || box.x + box.width > viewport.width) return false;
    // The page's document, reached through the element (this file is type-checked without the DOM library).
    return locator.evaluate((element, [x, y]) => element.contains(element.ownerDocument.elementFromPoint(x!, y!)), [box.x + box.width / 2, box.y + box.height / 2]);
  }

  async function untilInView(page: Page, locator: Locator, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await inView(page, locator))) {
      if (Date.now() > deadline) throw new Error(`${what} is not in view: ${JSON.stringify(await locator.boundingBox())}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('at 1280×800 a 199-step workflow keeps Save in view, the flow scrolling in its own column and following the cursor', async () => {
    const id = await createWorkflow('Long flow', benchWorkflowYaml({ steps: 199 }));
    const page = await signedInPage({ width: 1280, height: 800 });
    await page.goto(`${admin.host.url}/workflows/${id}`);
    const save = page.getByRole('button', { name: 'Save' });
    await expect(page.locator('[data-testid="flow-view"] .flow-row').nth(198)).visible();
    await untilInView(page, save, 'Save on opening');

    const column = page.locator('.workflow-flow-column');
    const sizes = await column.evaluate((element) => ({ height: element.clientHeight, scrollable: element.scrollHeight - element.clientHeight }));
    assert.ok(sizes.height <= 800, `the flow column is ${sizes.height} px tall`);
    assert.ok(sizes.scrollable > 1_000, `the flow scrolls inside its column (${sizes.scrollable} px more)`);
    await column.hover();
    await page.mouse.wheel(0, 5_000);
    await page.waitForFunction(`document.querySelector('.workflow-flow-column').scrollTop > 0`);

    // The cursor in step_150's def (found with the editor's search): the flow scrolls to its node.
    await clickLineEnd(page, 1);
    await page.keyboard.press('ControlOrMeta+f');
    await page.keyboard.type('step_150:');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await untilNodeShown(page, 150);

    // To the end of the YAML (the editor scrolls itself), then the page to its bottom.
    await clickLineEnd(page, 3);
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' # the end');
    await page.locator('main').evaluate((main) => main.scrollTo(0, main.scrollHeight));
    await page.waitForFunction(`document.querySelector('main').scrollTop > 0`);
    await untilInView(page, save, 'Save after scrolling the editor and the page');
    await untilInView(page, page.getByRole('status').filter({ hasText: 'Unsaved changes' }), 'the unsaved status');
    await saveScreenshot(page, 'editor-199-steps');
  });

  /** Waits until the flow's node at `position` lies inside the flow column's visible box. */
  async function untilNodeShown(page: Page, position: number): Promise<void> {
    const column = page.locator('.workflow-flow-column');
    const node = column.locator(`[data-position="${position}"]`);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [view, box] = [await column.boundingBox(), await node.boundingBox()];
      if (view && box && box.y >= view.y && box.y + box.height <= view.y + view.height) return;
      if (Date.now() > deadline) throw new Error(`step ${position} is not shown in the flow column: ${JSON.stringify({ view, box })}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('at 390 px the menu folds behind a Menu button that opens it', async () => {
    const page = await signedInPage({ width: 390, height: 844 });
    const menu = page.getByRole('button', { name: 'Menu' });
    const runs = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' });
    await expect(menu).visible();
    assert.equal(await runs.isVisible(), false, 'the menu is folded');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await menu.click();
    await expect(runs).visible();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await saveScreenshot(page, 'panel-phone-menu');
    await runs.click();
    await expectUrl(page, /\/runs$/);
    await expect(runs).hidden();

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(runs).visible();
    assert.equal(await menu.isVisible(), false, 'no Menu button on a wide screen');
  });

  test('the chat page keeps the newest message in view when the viewport shrinks', async () => {
    const workflowId = await createWorkflow('Echo for the chat page', ECHO_YAML);
    const source = await admin.api<{ ref: string }>('POST', '/api/sources', { name: 'Phone chat', channel: 'web', defaultWorkflowId: workflowId });
    assert.equal(source.status, 201, JSON.stringify(source.body));
    const context = await admin.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${admin.host.url}/chat/${source.body.ref}`);
    await expect(page.locator('#status[data-state="online"]')).visible();
    for (let index = 1; index <= 3; index++) {
      await page.locator('#input').fill(`Message ${index}: ${'a long line of text that wraps '.repeat(12)}`);
      await page.locator('#input').press('Enter');
      await expect(page.getByTestId('bot-message').nth(index - 1)).contains(`You said: Message ${index}`);
    }
    const newest = page.getByTestId('bot-message').last();
    await untilInView(page, newest, 'the newest reply');
    // A soft keyboard takes half the screen.
    await page.setViewportSize({ width: 390, height: 420 });
    await untilInView(page, newest, 'the newest reply after the viewport shrank');
  });

  test('a draft autosaved on the host is offered back in another browser, to its author only', async () => {
    const id = await createWorkflow('Drafted across browsers', ECHO_YAML);
    const first = await signedInPage({ width: 1280, height: 800 });
    await first.goto(`${admin.host.url}/workflows/${id}`);
    await expectEditorText(first, ECHO_YAML);
    await clickLineEnd(first, 1);
    await first.keyboard.type(' from the first browser');
    await untilDraftStored(id, 'from the first browser');

    const other = await signedInPage({ width: 1280, height: 800 });
    await other.goto(`${admin.host.url}/workflows/${id}`);
    const offer = other.getByRole('region', { name: 'Unsaved draft' });
    await expect(offer).visible();
    await expectEditorText(other, ECHO_YAML);
    await offer.getByRole('button', { name: 'Restore draft' }).click();
    await expectEditorText(other, /^description: Echoes every message from the first browser$/m);
    await expect(other.getByRole('status').filter({ hasText: 'Unsaved changes' })).visible();

    // Another author (an editor signed in as someone else) is offered nothing.
    const stranger = await signedInPage({ width: 1280, height: 800 }, 'editor');
    const draftAnswer = stranger.waitForResponse((response) => response.url().endsWith(`/api/workflows/${id}/draft`));
    await stranger.goto(`${admin.host.url}/workflows/${id}`);
    assert.deepEqual(await (await draftAnswer).json(), { draft: null });
    await expect(workflowEditor(stranger)).visible();
    await expectEditorText(stranger, ECHO_YAML);
    assert.equal(await stranger.getByRole('region', { name: 'Unsaved draft' }).count(), 0);
  });

  async function untilDraftStored(workflowId: string, text: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const row: { yaml: string } | undefined = await admin.database.db('workflow_drafts').where({ workflow_id: workflowId }).first('yaml');
      if (row?.yaml.includes(text)) return;
      if (Date.now() > deadline) throw new Error(`no draft stored on the host: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
