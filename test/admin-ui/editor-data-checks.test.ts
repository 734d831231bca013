import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { clickLineEnd, completionLabels, setEditorText, workflowEditor } from './code-editor.ts';
import { expect, expectUrl } from './expect-page.ts';

// The editor checks expressions against the data a run has (memory schemas, the function
// library) and says where a YAML typo is. One `npm start`, one page, a workflow-scope memory
// definition `visitor` with a nested schema.
const skip = browserSkipReason();

/** A greeting reading `visitor` memory; line 11 holds the expression `text`. */
function greeting(definitionId: string, text: string): string {
  return `description: Greets a visitor
defs:
  visitor:
    kind: memory
    settings:
      definition_id: ${definitionId}
  greet:
    kind: task
    action: send_text_message
    inputs:
      text: ${text}
flow:
  - do: greet
`;
}

/** The option `label` of the open completion list, with its detail. */
async function completionDetail(page: Page, label: string): Promise<string | null> {
  const option = page.locator('.cm-tooltip-autocomplete li').filter({ has: page.locator('.cm-completionLabel', { hasText: new RegExp(`^${label.replaceAll('$', '\\$')}$`) }) });
  return option.locator('.cm-completionDetail').textContent({ timeout: 5_000 });
}

/** The completion list's labels once they are `expected` (the list updates as the author types). */
async function expectCompletions(page: Page, expected: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let labels = await completionLabels(page);
  while (JSON.stringify(labels.toSorted()) !== JSON.stringify(expected.toSorted())) {
    if (Date.now() > deadline) assert.deepEqual(labels.toSorted(), expected.toSorted());
    await new Promise((resolve) => setTimeout(resolve, 50));
    labels = await completionLabels(page);
  }
}

/** Whether the lint marker sits on the 1-based `line` of the editor. */
async function markerIsOnLine(page: Page, line: number): Promise<boolean> {
  const marker = await page.locator('.cm-gutter-lint .cm-lint-marker-error').boundingBox();
  const row = await workflowEditor(page).locator('.cm-line').nth(line - 1).boundingBox();
  return !!marker && !!row && Math.abs(marker.y + marker.height / 2 - (row.y + row.height / 2)) < 4;
}

describe('the workflow editor checks expressions against the data', { skip }, () => {
  let admin: AdminHost;
  let visitor: { id: string; slug: string };
  before(async () => {
    admin = await startAdminHost();
    const created = await admin.api<{ id: string; slug: string }>('POST', '/api/memory-definitions', {
      name: 'Visitor',
      slug: 'visitor',
      scope: 'workflow',
      schema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: "The visitor's first name" },
          address: { type: 'object', description: 'Where they live', properties: { city: { type: 'string', description: 'Their city' } } },
        },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    visitor = created.body;
    await admin.page.goto(await admin.loginLink());
    await expectUrl(admin.page, /\/workflows/);
  });
  after(() => admin?.close());

  async function openNewWorkflow(yaml: string): Promise<void> {
    await admin.page.goto(`${admin.host.url}/workflows/new`);
    await expect(workflowEditor(admin.page)).visible();
    await setEditorText(admin.page, yaml);
  }

  test('a mistyped memory slug is one problem, marked on the slug itself, with the slug it meant', async () => {
    const { page } = admin;
    await openNewWorkflow(greeting(visitor.id, `'="Hi " & $context.memory.visitr.name'`));
    await expect(page.locator('.cm-lintRange-error')).text('visitr');
    assert.equal(await page.locator('.cm-gutter-lint .cm-lint-marker-error').count(), 1);
    assert.ok(await markerIsOnLine(page, 11), 'the marker is on line 11');
    await page.locator('.cm-gutter-lint .cm-lint-marker-error').hover();
    await expect(page.locator('.cm-tooltip-lint')).contains('did you mean `visitor`?');
  });

  test('a memory slug followed by a dot offers the fields of its schema, nested objects too, with their types', async () => {
    const { page } = admin;
    await openNewWorkflow(greeting(visitor.id, '=""'));
    await clickLineEnd(page, 11);
    for (let index = 0; index < 2; index++) await page.keyboard.press('Backspace');
    await page.keyboard.type('$context.memory.visitor.');
    await expectCompletions(page, ['address', 'name']);
    assert.equal(await completionDetail(page, 'name'), 'string');
    await page.keyboard.type('address.');
    await expectCompletions(page, ['city']);
  });

  test('"$len" offers $length with its signature', async () => {
    const { page } = admin;
    await openNewWorkflow(greeting(visitor.id, '=""'));
    await clickLineEnd(page, 11);
    for (let index = 0; index < 2; index++) await page.keyboard.press('Backspace');
    await page.keyboard.type('$len');
    assert.ok((await completionLabels(page)).includes('$length'), '$length is offered');
    assert.equal(await completionDetail(page, '$length'), '$length(str)');
  });

  test('one YAML typo is one problem, on the line of the typo, in plain words', async () => {
    const { page } = admin;
    // Line 8 joins two keys, as a swallowed Enter would.
    await openNewWorkflow(greeting(visitor.id, "'Hello'").replace('    kind: task\n    action:', '    kind: taskaction:'));
    const marker = page.locator('.cm-gutter-lint .cm-lint-marker-error');
    await expect(marker).visible();
    assert.equal(await marker.count(), 1);
    assert.ok(await markerIsOnLine(page, 8), 'the marker is on line 8');
    await marker.hover();
    await expect(page.locator('.cm-tooltip-lint')).contains('Line 8 has a second ": " after "kind:"');
    assert.equal(await page.locator('.cm-tooltip-lint .cm-diagnostic').count(), 1);
  });
});
