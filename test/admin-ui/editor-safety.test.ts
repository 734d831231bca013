import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Dialog } from 'playwright-core';
import { browserSkipReason } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { clickLineEnd, completionLabels, editorText, expectEditorText, setEditorText } from './code-editor.ts';
import { expect, expectUrl } from './expect-page.ts';
import { ECHO_YAML } from './workflow-fixtures.ts';

// The workflow editor keeps the author's work: Enter on an untouched completion list is a new
// line, Ctrl-S saves, and leaving with unsaved edits asks first. One `npm start`, one page.
const skip = browserSkipReason();

/** Past CodeMirror's interaction delay (75 ms after the list opens), when Enter and the arrows count. */
const pastInteractionDelay = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('the workflow editor keeps edits safe', { skip }, () => {
  let admin: AdminHost;
  // Every confirm the page opens, answered from `answers` (dismissed when none is queued); the
  // browser's "Leave site?" (beforeunload) is counted and accepted, so a test may leave a page.
  const dialogs: { type: string; message: string }[] = [];
  const answers: boolean[] = [];
  let unloadPrompts = 0;
  before(async () => {
    admin = await startAdminHost();
    admin.page.on('dialog', (dialog: Dialog) => {
      if (dialog.type() === 'beforeunload') {
        unloadPrompts++;
        void dialog.accept();
        return;
      }
      dialogs.push({ type: dialog.type(), message: dialog.message() });
      void (answers.shift() ? dialog.accept() : dialog.dismiss());
    });
    await admin.page.goto(await admin.loginLink());
    await expectUrl(admin.page, /\/workflows/);
  });
  after(() => admin?.close());

  async function untilDialogs(count: number): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (dialogs.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} dialog(s), saw ${JSON.stringify(dialogs)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function openSavedWorkflow(name: string): Promise<string> {
    const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name, yaml: ECHO_YAML });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await admin.page.goto(`${admin.host.url}/workflows/${created.body.id}`);
    await expect(admin.page.getByRole('heading', { name: `${name} (v1)` })).visible();
    await expectEditorText(admin.page, ECHO_YAML);
    return created.body.id;
  }

  /** Whether the page would hold a reload or a close for the browser's "Leave site?" prompt. */
  const holdsUnload = () =>
    admin.page.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      (globalThis as unknown as EventTarget).dispatchEvent(event);
      return event.defaultPrevented;
    });

  test('Enter on a completion list nobody picked from starts a new line; ArrowDown then Enter, or Tab, takes an item', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/new`);
    await setEditorText(page, 'description: Enter test\ndefs:\n  remember:');
    await clickLineEnd(page, 3);
    await page.keyboard.press('Enter');
    // `task` is an exact match of the kind enum: the list stays open on it.
    await page.keyboard.type('kind: task');
    assert.ok((await completionLabels(page)).includes('task'), 'the list is open on "task"');
    await pastInteractionDelay();
    await page.keyboard.press('Enter');
    await page.keyboard.type('x');
    await expectEditorText(page, 'description: Enter test\ndefs:\n  remember:\n    kind: task\n    x');

    // Picking with the arrow keys is what Enter accepts.
    await page.keyboard.press('Backspace');
    await page.keyboard.type('act');
    assert.ok((await completionLabels(page)).includes('action'));
    await pastInteractionDelay();
    const selected = page.locator('.cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel');
    assert.equal(await selected.count(), 0, 'nothing is selected until the arrows move');
    while ((await selected.textContent({ timeout: 1_000 }).catch(() => null)) !== 'action') await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expectEditorText(page, /^ {4}kind: task\n {4}action: ?$/m);
    assert.equal((await editorText(page)).split('\n').length, 5, 'Enter took the item and added no line');

    // Tab takes the first item of an untouched list.
    await page.keyboard.type('send_text_message');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.keyboard.type('inpu');
    assert.deepEqual(await completionLabels(page), ['inputs']);
    await pastInteractionDelay();
    await page.keyboard.press('Tab');
    await expectEditorText(page, /^ {4}inputs:/m);
    assert.equal(dialogs.length, 0);

    // Unsaved: going elsewhere by URL gets the browser's own prompt.
    await page.goto(`${admin.host.url}/runs`);
    assert.equal(unloadPrompts, 1);
  });

  test('Ctrl-S saves a new version, without a dialog', async () => {
    const { page } = admin;
    const id = await openSavedWorkflow('Saved by keyboard');
    const unsaved = page.getByRole('status').filter({ hasText: 'Unsaved changes' });
    assert.equal(await unsaved.count(), 0);
    await clickLineEnd(page, 1);
    await page.keyboard.type(' twice');
    await expect(unsaved).visible();
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByRole('heading', { name: 'Saved by keyboard (v2)' })).visible();
    await expect(unsaved).hidden();
    const saved = await admin.api<{ version: number; yaml: string }>('GET', `/api/workflows/${id}`);
    assert.equal(saved.body.version, 2);
    assert.match(saved.body.yaml, /^description: Echoes every message twice$/m);
    assert.equal(dialogs.length, 0);
  });

  test('leaving with unsaved edits asks; staying keeps the edit, leaving leaves; once saved nothing asks', async () => {
    const { page } = admin;
    const before = dialogs.length;
    const id = await openSavedWorkflow('Guarded');
    const runsLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' });
    assert.equal(await holdsUnload(), false, 'nothing to lose yet');
    await clickLineEnd(page, 1);
    await page.keyboard.type(' loudly');
    assert.equal(await holdsUnload(), true, 'a reload or close is held for the prompt');

    answers.push(false);
    await runsLink.click();
    await untilDialogs(before + 1);
    assert.deepEqual(dialogs[before], { type: 'confirm', message: 'This workflow has unsaved changes. Leave without saving them?' });
    await expect(page.getByRole('heading', { name: 'Guarded (v1)' })).visible();
    assert.match(page.url(), new RegExp(`/workflows/${id}$`));
    await expectEditorText(page, /^description: Echoes every message loudly$/m);

    answers.push(true);
    await runsLink.click();
    await untilDialogs(before + 2);
    await expectUrl(page, /\/runs$/);
    // The runs page drawn: the editor (and its unload guard) is gone, not just the URL changed.
    await expect(page.getByRole('heading', { name: 'Runs', exact: true })).visible();

    // Back again, edit, save: then the link leaves at once.
    await page.goto(`${admin.host.url}/workflows/${id}`);
    await expectEditorText(page, ECHO_YAML);
    await clickLineEnd(page, 1);
    await page.keyboard.type(' quietly');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { name: 'Guarded (v2)' })).visible();
    assert.equal(await holdsUnload(), false, 'saved: nothing holds a reload');
    await runsLink.click();
    await expectUrl(page, /\/runs$/);
    assert.equal(dialogs.length, before + 2, JSON.stringify(dialogs));
    assert.equal(unloadPrompts, 1, 'no "Leave site?" once saved');
  });
  test('unsaved edits are kept as a draft on the host, offered back on return, and dropped once saved', async () => {
    const { page } = admin;
    const id = await openSavedWorkflow('Drafted');
    // The author's draft row (the page is signed in as `admin`); null when there is none.
    const storedDraft = async () => {
      const row: { yaml: string } | undefined = await admin.database.db('workflow_drafts').where({ workflow_id: id, author: 'admin' }).first('yaml');
      return row?.yaml ?? null;
    };
    await clickLineEnd(page, 1);
    await page.keyboard.type(' from a draft');
    const deadline = Date.now() + 5_000;
    while (!(await storedDraft())?.includes('from a draft')) {
      if (Date.now() > deadline) throw new Error(`no draft stored: ${await storedDraft()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Leave as if the tab were closed (the "Leave site?" prompt is accepted), then come back.
    await page.goto(`${admin.host.url}/runs`);
    await page.goto(`${admin.host.url}/workflows/${id}`);
    const offer = page.getByRole('region', { name: 'Unsaved draft' });
    await expect(offer).visible();
    await expectEditorText(page, ECHO_YAML);
    await offer.getByRole('button', { name: 'Restore draft' }).click();
    await expectEditorText(page, /^description: Echoes every message from a draft$/m);
    await expect(offer).hidden();
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByRole('heading', { name: 'Drafted (v2)' })).visible();
    // Saved: the draft is gone (an autosave still in flight is removed right after it lands).
    const savedBy = Date.now() + 5_000;
    while ((await storedDraft()) !== null) {
      if (Date.now() > savedBy) throw new Error(`saved, yet a draft is left: ${await storedDraft()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Drafted (v2)' })).visible();
    await expectEditorText(page, /^description: Echoes every message from a draft$/m);
    assert.equal(await offer.count(), 0, 'nothing offered after the save');
  });
});
