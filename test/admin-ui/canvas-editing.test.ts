import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { clickLineEnd, completionLabels, editorText, expectEditorText, workflowEditor } from './code-editor.ts';
import { expect, expectUrl } from './expect-page.ts';

// Issue 23: the flow and the text linked both ways, and the canvas edits the text. One `npm start`.
const skip = browserSkipReason();

const YAML = `description: Greets, then remembers
defs:
  greet:
    kind: task
    action: send_text_message
    # The greeting; a canvas edit keeps this comment.
    inputs:
      text: Hello
  remember:
    kind: task
    action: update_memory
    inputs:
      memory: '={}'
flow:
  - do: greet
  - do: remember
`;

describe('the canvas edits the YAML, and the flow and the text select each other', { skip }, () => {
  let admin: AdminHost;
  let workflowId: string;
  before(async () => {
    admin = await startAdminHost();
    const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name: 'Canvas', yaml: YAML });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    workflowId = created.body.id;
    await admin.page.goto(await admin.loginLink());
    await expectUrl(admin.page, /\/workflows/);
  });
  after(() => admin?.close());

  const flow = () => admin.page.getByTestId('flow-view');
  const node = (task: string): Locator => flow().locator(`.flow-step[data-step="${task}"]`);
  const selectedLines = () => workflowEditor(admin.page).locator('.cm-line.cm-flow-selected').allTextContents();

  async function openWorkflow(): Promise<void> {
    admin.page.once('dialog', (dialog) => void dialog.accept()); // leaving unsaved edits of an earlier test
    await admin.page.goto(`${admin.host.url}/workflows/${workflowId}`);
    await expect(node('greet')).visible();
  }

  async function until(holds: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await holds())) {
      if (Date.now() > deadline) throw new Error(`never: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('clicking a step selects its task def in the YAML; the cursor in a def highlights its step', async () => {
    const { page } = admin;
    await openWorkflow();
    await node('greet').click();
    await until(async () => (await selectedLines()).length > 0, 'the def is selected');
    assert.deepEqual(await selectedLines(), ['  greet:', '    kind: task', '    action: send_text_message', '    # The greeting; a canvas edit keeps this comment.', '    inputs:', '      text: Hello']);
    assert.equal(await node('greet').getAttribute('aria-current'), 'true');
    await expect(page.getByRole('complementary', { name: 'Step 1, greet' })).visible();

    await clickLineEnd(page, 11); // `    action: update_memory`
    await until(async () => (await node('remember').getAttribute('class'))?.includes('selected') ?? false, 'the cursor highlights remember');
    assert.doesNotMatch((await node('greet').getAttribute('class')) ?? '', /selected/);
    await clickLineEnd(page, 15); // `  - do: greet`
    await until(async () => (await node('greet').getAttribute('class'))?.includes('selected') ?? false, 'the cursor in a flow item highlights its step');

    await node('remember').focus(); // a step is a tab stop: Enter selects it as a click does
    await page.keyboard.press('Enter');
    await until(async () => (await selectedLines())[0] === '  remember:', 'Enter on a step selects its def');
    assert.deepEqual(await selectedLines(), ['  remember:', '    kind: task', '    action: update_memory', '    inputs:', "      memory: '={}'"]);
  });

  test("editing a step's input in the panel rewrites that line only, keeps the comment two lines above, and Ctrl-Z undoes it", async () => {
    const { page } = admin;
    await openWorkflow();
    await node('greet').click();
    const panel = page.getByRole('complementary', { name: 'Step 1, greet' });
    const text = panel.getByLabel('text (required)');
    await expect(text).value('Hello');
    await text.fill('Hi there, friend');
    await text.press('Tab');
    const edited = YAML.replace('      text: Hello', '      text: Hi there, friend');
    await expectEditorText(page, edited);
    assert.match(await editorText(page), / {4}# The greeting; a canvas edit keeps this comment.\n {4}inputs:\n {6}text: Hi there, friend/);
    await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).visible();
    await saveScreenshot(page, 'workflow-canvas-input-form');

    await clickLineEnd(page, 2);
    await page.keyboard.press('ControlOrMeta+z');
    await expectEditorText(page, YAML);
    await expect(text).value('Hello');
  });

  test('"Add step" adds a def with the action’s required inputs and its flow item, which saves as a valid workflow', async () => {
    const { page } = admin;
    await openWorkflow();
    await node('greet').click();
    await flow().getByRole('button', { name: 'Add step' }).click();
    const palette = page.getByRole('dialog', { name: 'Add a step' });
    await expect(palette.getByLabel('Where')).value('1');
    await palette.getByRole('button', { name: 'send_text_message' }).click();
    await expect(node('send_text_message')).visible();
    const text = await editorText(page);
    assert.match(text, /\n {2}send_text_message:\n {4}kind: task\n {4}action: send_text_message\n {4}inputs:\n {6}text: Hello!\nflow:\n {2}- do: greet\n {2}- do: send_text_message\n {2}- do: remember\n$/);
    assert.equal(await node('send_text_message').getAttribute('data-position'), '1');
    await expect(page.getByRole('complementary', { name: 'Step 2, send_text_message' })).visible();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Canvas (v2)' })).visible();
    const saved = await admin.api<{ yaml: string }>('GET', `/api/workflows/${workflowId}`);
    assert.equal(saved.body.yaml, text);
  });

  test('"Add branch" turns an input into a conditional drawn as a diamond, and its expression field completes like the editor', async () => {
    const { page } = admin;
    await openWorkflow();
    await node('greet').click();
    await flow().getByRole('button', { name: 'Add branch' }).click();
    const form = page.getByRole('form', { name: 'Add a branch' });
    await expect(form.getByLabel('Then')).value('"Hello"');
    await form.getByLabel('Test').fill('$input.text = "hi"');
    await form.getByLabel('Then').fill('"Hi yourself"');
    await form.getByRole('button', { name: 'Add the branch' }).click();
    // Quoted by the YAML writer: the value holds `: `.
    await expectEditorText(page, /\n {6}text: '=\$input\.text = "hi" \? "Hi yourself" : "Hello"'\n/);
    await expect(flow().locator('.flow-condition[data-input="text"]')).visible();

    const field = page.getByRole('complementary', { name: 'Step 1, greet' }).getByRole('textbox', { name: 'text' });
    await field.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' & $inp');
    assert.ok((await completionLabels(page)).includes('$input'), 'the field offers $input');
    await page.keyboard.press('Escape');
    await page.keyboard.type('ut.text');
    await page.getByRole('button', { name: 'Add step' }).focus(); // leaving the field writes it
    await expectEditorText(page, /\n {6}text: '=\$input\.text = "hi" \? "Hi yourself" : "Hello" & \$input\.text'\n/);
  });
});
