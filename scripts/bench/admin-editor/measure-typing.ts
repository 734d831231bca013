import type { Page } from 'playwright-core';
import { mainThreadCpuMs } from './main-thread-cpu.ts';

export interface TypingFigures {
  keystrokes: number;
  /** Per keystroke: from the key event's creation (when the input arrived) to the next frame. */
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** Wall-clock time of the whole burst over the keystrokes, delay included. */
  perCharacterWallMs: number;
  /** The page's main-thread CPU time over the burst (and the debounced work right after it), per keystroke. */
  cpuPerKeystrokeMs: number;
}

/** After the burst: the debounced work (flow redraw, validation, draft) runs within this. */
const SETTLE_MS = 1_000;

/**
 * Types `count` characters at the end of line 5 of the open editor, `delayMs` apart, and times
 * each from its keydown's timestamp (set when the input reached the page, so time spent waiting
 * behind a long task counts) to the frame after it, measured in the page; and the main thread's
 * CPU time over the burst, which the machine's other load does not inflate.
 */
export async function measureTyping(page: Page, count: number, delayMs: number): Promise<TypingFigures> {
  const lines = page.locator('.cm-content .cm-line');
  await lines.first().waitFor();
  await lines.nth(4).click();
  await page.keyboard.press('End');
  // In the page (a string: this file is type-checked without the DOM library).
  await page.evaluate(`
    globalThis.editorKeystrokes = [];
    addEventListener('keydown', (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => setTimeout(() => editorKeystrokes.push(performance.now() - start), 0));
    }, { capture: true });
  `);
  let wall = 0;
  const cpu = await mainThreadCpuMs(page, async () => {
    const started = performance.now();
    await page.keyboard.type('x'.repeat(count), { delay: delayMs });
    wall = performance.now() - started;
    await page.waitForTimeout(SETTLE_MS);
  });
  await page.waitForFunction(`editorKeystrokes.length >= ${count}`, undefined, { timeout: 30_000 });
  const sorted = (await page.evaluate<number[]>('editorKeystrokes')).sort((a, b) => a - b);
  return {
    keystrokes: sorted.length,
    medianMs: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    maxMs: sorted.at(-1)!,
    perCharacterWallMs: wall / count,
    cpuPerKeystrokeMs: cpu / count,
  };
}

export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}
