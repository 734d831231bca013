import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { clickLineEnd, completionLabels, editorText, expectEditorText, setEditorText, typeAndComplete, workflowEditor } from './code-editor.ts';
import { expect, expectUrl } from './expect-page.ts';
import { ECHO_YAML } from './workflow-fixtures.ts';

// One real `npm start` and one browser page; each test opens a new workflow of its own.
const skip = browserSkipReason();

const TASK_WITHOUT_ACTION = `description: Remembers a colour
defs:
  remember:
    kind: task
flow:
  - do: remember
`;

/** The echo workflow with its flow naming a def that does not exist: a diagnostic, and no save. */
const BROKEN_ECHO_YAML = ECHO_YAML.replace('  - do: reply\n', '  - do: replyy\n');

// Memory defs and tasks in block and flow style; lines 21, 23 and 25 are where the test types.
const NAME_LISTS_YAML = `description: An agent with tools and memory
defs:
  profile: { kind: memory, settings: { definition_id: x } }
  notes:
    kind: memory
    settings:
      definition_id: y
  lookup: { kind: task, action: ai_generate_text, inputs: { prompt: '=$input.text' } }
  reply:
    kind: task
    action: send_text_message
    inputs:
      text: hi
  helper:
    kind: task
    action: ai_agent
    inputs:
      prompt: '=$input.text'
      tools:
        - lookup
        -\u0020
    bindings:
      memory: [notes, ]
bindings:
  memory:
flow:
  - do: helper
`;

describe('the workflow editor', { skip }, () => {
  let admin: AdminHost;
  let colour: { id: string; slug: string };
  before(async () => {
    admin = await startAdminHost();
    const created = await admin.api<{ id: string; slug: string }>('POST', '/api/memory-definitions', {
      name: 'Favourite colour',
      slug: 'favourite_colour',
      scope: 'global',
      schema: { type: 'object', properties: { colour: { type: 'string', description: 'A colour name' } } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    colour = created.body;
    await admin.page.goto(await admin.loginLink());
    await expectUrl(admin.page, /\/workflows/);
  });
  after(() => admin?.close());

  async function openNewWorkflow(name: string): Promise<void> {
    await admin.page.goto(`${admin.host.url}/workflows/new`);
    await admin.page.getByLabel('Name', { exact: true }).fill(name);
    await expect(workflowEditor(admin.page)).visible();
  }

  test('typing "act" in a task offers the action names; update_memory, then a memory slug writes its definition id', async () => {
    const { page } = admin;
    await openNewWorkflow('Colour');
    await setEditorText(page, TASK_WITHOUT_ACTION);
    await clickLineEnd(page, 4);
    await page.keyboard.press('Enter');
    await page.keyboard.type('act');
    assert.ok((await completionLabels(page)).includes('action'), 'the key "action" is offered');
    await typeAndComplete(page, '', 'action');
    const actions = await completionLabels(page);
    for (const name of ['send_text_message', 'update_memory', 'ai_generate_reply', 'ai_agent']) assert.ok(actions.includes(name), `${name} is offered`);
    await saveScreenshot(page, 'workflow-editor-actions');
    await typeAndComplete(page, 'update_m', 'update_memory');
    await expectEditorText(page, /^ {4}action: update_memory$/m);

    // The task's inputs: update_memory takes `memory`, an expression that sees the run's bindings.
    await page.keyboard.press('Enter');
    await typeAndComplete(page, 'inp', 'inputs');
    await page.keyboard.type('m');
    assert.deepEqual(await completionLabels(page), ['memory']);
    await typeAndComplete(page, '', 'memory');
    await page.keyboard.type(`'={ "${colour.slug}": { "colour": $input.text & $context.mem`);
    await typeAndComplete(page, '', 'memory');
    await page.keyboard.type('.');
    assert.ok((await completionLabels(page)).includes(colour.slug), "the global definition's slug is offered under $context.memory");
    await typeAndComplete(page, '', colour.slug);
    await page.keyboard.type(`.colour } }'`);
    await page.keyboard.press('Escape');
    await expect(page.locator('.cm-jsonata').filter({ hasText: '$input.text' })).visible();

    // A kind: memory def: its definition is completed by slug and its id written.
    await clickLineEnd(page, 2);
    await page.keyboard.press('Enter');
    await page.keyboard.type('colour:');
    await page.keyboard.press('Enter');
    await typeAndComplete(page, 'ki', 'kind');
    await typeAndComplete(page, 'mem', 'memory');
    await page.keyboard.press('Enter');
    await typeAndComplete(page, 'sett', 'settings');
    await typeAndComplete(page, 'def', 'definition_id');
    await page.keyboard.type('fav');
    assert.deepEqual(await completionLabels(page), [colour.slug]);
    await typeAndComplete(page, '', colour.slug);
    await expectEditorText(page, new RegExp(`^ {6}definition_id: ${colour.id} # ${colour.slug}$`, 'm'));
    await saveScreenshot(page, 'workflow-editor-memory');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectUrl(page, /\/workflows\/[0-9a-f-]{36}$/);
    const saved = await admin.api<{ items: { id: string; name: string }[] }>('GET', '/api/workflows?q=Colour');
    const workflow = await admin.api<{ yaml: string }>('GET', `/api/workflows/${saved.body.items[0]!.id}`);
    assert.match(workflow.body.yaml, new RegExp(`definition_id: ${colour.id}`));
    assert.match(workflow.body.yaml, /action: update_memory/);
  });

  test('an invalid step shows a diagnostic at its line in the lint gutter, and the save is refused with the same message', async () => {
    const { page } = admin;
    await openNewWorkflow('Echo');
    await setEditorText(page, BROKEN_ECHO_YAML);
    const marker = page.locator('.cm-gutter-lint .cm-lint-marker-error');
    await expect(marker).visible();
    assert.equal(await marker.count(), 1);
    const markerBox = await marker.boundingBox();
    const lineBox = await workflowEditor(page).locator('.cm-line').nth(8).boundingBox();
    assert.ok(markerBox && lineBox && Math.abs(markerBox.y + markerBox.height / 2 - (lineBox.y + lineBox.height / 2)) < 4, 'the marker is on line 9');
    await expect(page.locator('.cm-lintRange-error')).text('replyy');
    await marker.hover();
    const message = 'No def is named "replyy"';
    await expect(page.locator('.cm-tooltip-lint')).contains(message);
    await saveScreenshot(page, 'workflow-editor-diagnostic');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).visible();
    const problem = page.getByRole('list', { name: 'Problems' }).getByRole('listitem');
    await expect(problem).contains(`Line 9, column 9 (flow.0.do): ${message}`);
    assert.equal(await page.locator('.cm-gutter-lint .cm-lint-marker-error').count(), 1);
    assert.match(page.url(), /\/workflows\/new$/);
  });

  test('a two-step workflow is written, completed and saved with the keyboard alone', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/new`);
    await expect(workflowEditor(page)).visible();
    // Tab from the top of the page to the name field, then on into the editor.
    const focused = page.locator(':focus');
    for (let presses = 0; presses < 40 && (await focused.getAttribute('name').catch(() => null)) !== 'name'; presses++) await page.keyboard.press('Tab');
    await page.keyboard.type('Two steps');
    await page.keyboard.press('Tab');
    assert.equal(await focused.getAttribute('aria-label'), 'Workflow YAML');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');

    const complete = (typed: string, label: string) => typeAndComplete(page, typed, label);
    await complete('desc', 'description');
    await page.keyboard.type('Says hello twice');
    await page.keyboard.press('Enter');
    await complete('def', 'defs'); // defs:⏎ and two spaces
    await page.keyboard.type('hello:');
    await page.keyboard.press('Enter');
    await complete('ki', 'kind');
    await complete('ta', 'task');
    await page.keyboard.press('Enter');
    await complete('act', 'action');
    await complete('send', 'send_text_message');
    await page.keyboard.press('Enter');
    await complete('inp', 'inputs'); // inputs:⏎ and six spaces
    await complete('te', 'text');
    await page.keyboard.type('Hello');
    await page.keyboard.press('Enter');
    // Shift-Tab takes the line back to the defs' level.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('again:');
    await page.keyboard.press('Enter');
    await complete('ki', 'kind');
    await complete('ta', 'task');
    await page.keyboard.press('Enter');
    await complete('act', 'action');
    await complete('send', 'send_text_message');
    await page.keyboard.press('Enter');
    await complete('inp', 'inputs');
    await complete('te', 'text');
    await page.keyboard.type(`'="Hello again, " & $inp`);
    await complete('', '$input');
    await page.keyboard.type('.te');
    await complete('', 'text');
    await page.keyboard.type(`'`);
    await page.keyboard.press('Enter');
    for (let level = 0; level < 3; level++) await page.keyboard.press('Shift+Tab');
    await complete('fl', 'flow'); // flow:⏎ and "  - "
    await complete('d', 'do');
    await complete('he', 'hello');
    await page.keyboard.press('Enter'); // under `do`: one level back for the next item
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('- ');
    await complete('d', 'do');
    await complete('ag', 'again');
    const expected = `description: Says hello twice
defs:
  hello:
    kind: task
    action: send_text_message
    inputs:
      text: Hello
  again:
    kind: task
    action: send_text_message
    inputs:
      text: '="Hello again, " & $input.text'
flow:
  - do: hello
  - do: again`;
    await expectEditorText(page, expected);
    await saveScreenshot(page, 'workflow-editor-keyboard');

    // Escape, then Tab leaves the editor (Tab alone indents) for the flow beside it; Save sits in
    // the toolbar above the editor (Shift-Tab past the Name field), and Ctrl-S saves from anywhere.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    assert.notEqual(await focused.getAttribute('aria-label'), 'Workflow YAML');
    assert.equal(await page.locator('.workflow-flow-column').evaluate((column, active) => column.contains(active), await focused.elementHandle()), true, 'the next stop is in the flow');
    await page.keyboard.press('ControlOrMeta+s');
    await expectUrl(page, /\/workflows\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Two steps (v1)' })).visible();
    assert.equal(await editorText(page), `${expected}`);
  });

  test("the lists that name defs offer them: an agent's tools the other tasks, memory bindings the memory defs", async () => {
    const { page } = admin;
    await openNewWorkflow('Name lists');
    await setEditorText(page, NAME_LISTS_YAML);

    // tools, block style: not the agent itself, nor lookup, already listed.
    await clickLineEnd(page, 21);
    await page.keyboard.press('ControlOrMeta+Space');
    assert.deepEqual(await completionLabels(page), ['reply']);
    await typeAndComplete(page, 're', 'reply');
    await saveScreenshot(page, 'workflow-editor-tools-completion');

    // A task's memory, flow style: notes is listed, profile (a flow-style def) is offered.
    await clickLineEnd(page, 23);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('p');
    assert.deepEqual(await completionLabels(page), ['profile']);
    await typeAndComplete(page, 'ro', 'profile');

    // The workflow's memory, block style: the list opens as the item starts.
    await clickLineEnd(page, 25);
    await page.keyboard.press('Enter');
    await page.keyboard.type('- ');
    assert.deepEqual(await completionLabels(page), ['notes', 'profile']);
    await typeAndComplete(page, 'n', 'notes');
    await saveScreenshot(page, 'workflow-editor-memory-bindings-completion');
    const expected = NAME_LISTS_YAML.replace('        - \n', '        - reply\n').replace('[notes, ]', '[notes, profile]').replace('  memory:\nflow', '  memory:\n    - notes\nflow');
    await expectEditorText(page, expected);
  });

  test('hovering a key shows its description from the workflow schema', async () => {
    const { page } = admin;
    await openNewWorkflow('Hover');
    await setEditorText(page, ECHO_YAML);
    await workflowEditor(page).locator('.cm-line').nth(7).getByText('flow').hover();
    await expect(page.locator('.cm-tooltip-hover .cm-schema-doc')).text('flow: The tasks to run, in order');
    await saveScreenshot(page, 'workflow-editor-hover');
    await page.mouse.move(0, 0);
    await expect(page.locator('.cm-tooltip-hover')).hidden();
    await workflowEditor(page).locator('.cm-line').nth(4).getByText('action').hover();
    await expect(page.locator('.cm-tooltip-hover .cm-schema-doc')).contains('action: What the task does');
  });
});
