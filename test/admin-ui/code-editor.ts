import type { Locator, Page } from 'playwright-core';

/**
 * Drives the workflow editor (CodeMirror 6, a contenteditable labelled "Workflow YAML") as a
 * user would: `fill` and `inputValue` are for form fields, not for it.
 */
export function workflowEditor(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Workflow YAML' });
}

/** Replaces the whole text as typed input (select all, then insert): no auto-indentation, no completion. */
export async function setEditorText(page: Page, text: string): Promise<void> {
  await workflowEditor(page).click();
  await page.keyboard.press('ControlOrMeta+a');
  if (text === '') await page.keyboard.press('Delete');
  else await page.keyboard.insertText(text);
}

/** The text shown, line by line (CodeMirror draws the lines in view: enough for a test's short YAML). */
export async function editorText(page: Page): Promise<string> {
  return (await workflowEditor(page).locator('.cm-line').allTextContents()).join('\n');
}

/** Waits until the text shown is `expected`. */
export async function expectEditorText(page: Page, expected: string | RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last = await editorText(page);
    if (typeof expected === 'string' ? last === expected : expected.test(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the editor shows ${JSON.stringify(last)}, expected ${typeof expected === 'string' ? JSON.stringify(expected) : expected}`);
}

/** Puts the cursor at the end of the 1-based `line` by clicking it, then End. */
export async function clickLineEnd(page: Page, line: number): Promise<void> {
  await workflowEditor(page).locator('.cm-line').nth(line - 1).click();
  await page.keyboard.press('End');
}

/** The open completion list's option labels. */
export async function completionLabels(page: Page): Promise<string[]> {
  const options = page.locator('.cm-tooltip-autocomplete li .cm-completionLabel');
  await options.first().waitFor({ state: 'visible', timeout: 5_000 }).catch(async (error: unknown) => {
    throw new Error(`no completion list; the editor shows ${JSON.stringify(await editorText(page))}`, { cause: error });
  });
  return options.allTextContents();
}

/**
 * Types `typed` and accepts the completion `label` as an author picks one: the list opens with
 * nothing selected (Enter there is a new line), so the arrow keys move to `label`, then Enter.
 */
export async function typeAndComplete(page: Page, typed: string, label: string): Promise<void> {
  await page.keyboard.type(typed);
  const deadline = Date.now() + 5_000;
  let labels = await completionLabels(page);
  while (!labels.includes(label)) {
    if (Date.now() > deadline) throw new Error(`"${label}" is not offered (${labels.join(', ')}); the editor shows ${JSON.stringify(await editorText(page))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    labels = await completionLabels(page);
  }
  // CodeMirror ignores the arrow keys and Enter for its interaction delay (75 ms) after the list opens.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const selected = page.locator('.cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel');
  for (let presses = 0; presses <= labels.length; presses++) {
    await page.keyboard.press('ArrowDown');
    if ((await selected.textContent({ timeout: 1_000 }).catch(() => null)) === label) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`the arrow keys never selected "${label}"; the editor shows ${JSON.stringify(await editorText(page))}`);
}
