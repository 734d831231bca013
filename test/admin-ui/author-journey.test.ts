import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { editorText, expectEditorText, setEditorText } from './code-editor.ts';
import { expect, expectUrl } from './expect-page.ts';

// A new author's first bot, on a fresh host: "ask the name, remember it, greet by name, offer two
// quick replies", built on the canvas and in the YAML by turns, tried in the docked test chat
// without saving the last edit, with the run drawn on the flow. One `npm start`, one page.
const skip = browserSkipReason();

/** What the author types first: one step that asks for the name, or greets by it. */
const TYPED = `description: Asks the name, remembers it, greets by name
defs:
  greet:
    kind: task
    action: send_text_message
    inputs:
      text: '=$exists($context.memory.visitor.name) ? "Hello " & $context.memory.visitor.name & "!" : "What is your name?"'
flow:
  - do: greet
`;

/** What the author types into the new step's memory field on the canvas. */
const REMEMBER = '$contains($input.text, "name is ") ? {"visitor": {"name": $substringAfter($input.text, "name is ")}} : {}';

/** The last edit, typed in the YAML and never saved: two quick replies under the greeting. */
const QUICK_REPLIES = `      quick_replies:
        - title: Tell me more
          payload: MORE
        - title: Bye
          payload: BYE
`;

describe('a new author builds, tests and sees a bot that remembers a name', { skip }, () => {
  let admin: AdminHost;
  before(async () => {
    admin = await startAdminHost();
    const visitor = await admin.api('POST', '/api/memory-definitions', {
      name: 'Visitor',
      slug: 'visitor',
      scope: 'global',
      schema: { type: 'object', properties: { name: { type: 'string', description: 'What the visitor said their name is' } } },
    });
    assert.equal(visitor.status, 201, JSON.stringify(visitor.body));
    await admin.page.setViewportSize({ width: 1280, height: 800 });
    await admin.page.goto(await admin.loginLink());
    await expectUrl(admin.page, /\/workflows/);
  });
  after(() => admin?.close());

  test('in YAML and on the canvas, tested in the docked chat without saving, the run drawn on the flow', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Name greeter');

    // In the YAML: the greeting, which asks for the name until it knows it.
    await setEditorText(page, TYPED);
    await expectEditorText(page, TYPED);
    const flow = page.getByTestId('flow-view');
    await expect(flow.locator('.flow-step[data-step="greet"]')).visible();

    // On the canvas: a step that remembers the name, added before the greeting from the palette.
    await flow.getByRole('button', { name: 'Add step' }).click();
    const palette = page.getByRole('dialog', { name: 'Add a step' });
    await palette.getByLabel('Where').selectOption('0');
    await palette.getByRole('button', { name: 'update_memory' }).click();
    const remember = flow.locator('.flow-step[data-step="update_memory"]');
    await expect(remember).visible();
    assert.equal(await remember.getAttribute('data-position'), '0');
    const panel = page.getByRole('complementary', { name: 'Step 1, update_memory' });
    const field = panel.getByRole('textbox', { name: 'memory' });
    await field.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(REMEMBER);
    await page.getByRole('button', { name: 'Add step' }).focus(); // leaving the field writes it
    await expectEditorText(page, /\n {2}update_memory:\n {4}kind: task\n {4}action: update_memory\n {4}inputs:\n {6}memory: '=\$contains/);
    assert.match(await editorText(page), /flow:\n {2}- do: update_memory\n {2}- do: greet\n$/);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Name greeter (v1)' })).visible();
    const workflowId = /\/workflows\/([0-9a-f-]{36})/.exec(page.url())?.[1];
    assert.ok(workflowId, page.url());

    // Back in the YAML, unsaved: two quick replies under the greeting.
    const lines = (await editorText(page)).split('\n');
    const textLine = lines.findIndex((line) => line.startsWith('      text: '));
    const withReplies = `${lines.slice(0, textLine + 1).join('\n')}\n${QUICK_REPLIES}${lines.slice(textLine + 1).join('\n')}`;
    await setEditorText(page, withReplies);
    await expectEditorText(page, withReplies);
    await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).visible();

    // The docked chat talks to the draft: asked the name, told it, greeted by it with two chips.
    const chat = page.getByRole('region', { name: 'Test chat' });
    await expect(chat.getByRole('heading', { name: 'Test chat (unsaved draft)' })).visible();
    const message = chat.getByLabel('Message', { exact: true });
    await message.fill('hi');
    await chat.getByRole('button', { name: 'Run test' }).click();
    const transcript = chat.getByRole('list', { name: 'Messages' });
    await expect(transcript.locator('.chat-bubble-bot').first()).contains('What is your name?');
    await message.fill('my name is Ada');
    await chat.getByRole('button', { name: 'Run test' }).click();
    await expect(transcript.locator('.chat-bubble-bot').nth(1)).contains('Hello Ada!');
    await expect(transcript.getByRole('button', { name: 'Tell me more' })).visible();
    await expect(transcript.getByRole('button', { name: 'Bye' })).visible();
    await expect(chat.getByRole('region', { name: 'Test memory' })).contains('"name": "Ada"');

    // The last run drawn on the flow: both steps ran, and the greeting took its `then` branch.
    await expect(flow.locator('.flow-step[data-step="greet"].run-succeeded')).visible();
    await expect(flow.locator('.flow-step[data-step="update_memory"].run-succeeded')).visible();
    await expect(flow.locator('.flow-step[data-step="greet"] + .flow-side .flow-condition[data-took="then"]')).visible();
    await saveScreenshot(page, 'author-journey');

    const versions = await admin.api<{ total: number }>('GET', `/api/workflows/${workflowId}/versions`);
    assert.equal(versions.body.total, 1, 'the quick replies were tested, never saved');
  });
});
