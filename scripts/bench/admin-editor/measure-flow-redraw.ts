import type { Page } from 'playwright-core';
import { benchWorkflowYaml } from './workflow-fixtures.ts';
import { percentile } from './measure-typing.ts';

/**
 * Flow redraw at `steps` steps: the editor's text is replaced (select all, a paste event) by a workflow
 * whose first task has another name, alternating between two, and the time runs from the paste
 * to the first frame whose drawing shows the new name. Median and worst of `rounds`.
 */
export async function measureFlowRedraw(page: Page, steps: number, rounds: number): Promise<{ medianMs: number; maxMs: number }> {
  const texts = [benchWorkflowYaml({ steps, prefix: 'first' }), benchWorkflowYaml({ steps, prefix: 'second' })];
  const times: number[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    const prefix = round % 2 ? 'second' : 'first';
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    // A paste as the browser delivers one (CodeMirror takes the clipboard's text from the event).
    const started = await page.evaluate<number>(pasteScript(texts[round % 2]!));
    const drawn = await page.waitForFunction<number>(
      `(() => {
        const labels = document.querySelectorAll('[data-testid="flow-view"] .flow-row');
        return labels.length === ${steps} && labels[0].textContent.includes('${prefix}_0') && performance.now();
      })()`,
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    // Round 0 draws from the page's own workflow: a different size, not counted.
    if (round > 0) times.push((await drawn.jsonValue()) - started);
  }
  const sorted = times.sort((a, b) => a - b);
  return { medianMs: percentile(sorted, 0.5), maxMs: sorted.at(-1)! };
}

/** In the page (a string: this file is type-checked without the DOM library): pastes `text`, returns when it started. */
function pasteScript(text: string): string {
  return `(() => {
    const data = new DataTransfer();
    data.setData('text/plain', ${JSON.stringify(text)});
    const started = performance.now();
    document.querySelector('.cm-content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    return started;
  })()`;
}
