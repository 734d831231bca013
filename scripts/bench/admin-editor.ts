/**
 * `npm run bench -- admin-editor`: what the workflow editor costs. The admin bundle's gzip size
 * per chunk (against a baseline commit, with the workflow chunks' total against their budget),
 * the editor page's load time in headless Chromium (median of 5, the Memory list page in the same
 * run as the baseline), typing latency in a 19-line and a 2,000-line workflow (median and p95 per
 * keystroke), and the flow's redraw time at 200 steps.
 */
import type { Page } from 'playwright-core';
import { startAdminHost, type AdminHost } from '../../test/admin-ui/admin-host.ts';
import { reportBundle, reportWorkflowChunks } from './admin-editor/bundle-sizes.ts';
import { measureFlowRedraw } from './admin-editor/measure-flow-redraw.ts';
import { measureTyping, type TypingFigures } from './admin-editor/measure-typing.ts';
import { LARGE_WORKFLOW_YAML, SMALL_WORKFLOW_YAML } from './admin-editor/workflow-fixtures.ts';
import { openBenchDatabase, type BenchDatabase } from './bench-database.ts';

const ROUNDS = 5;
const KEYSTROKES = 60;
/** Between keystrokes: a brisk typist (25 characters a second). */
const KEY_DELAY_MS = 40;
const REDRAW_STEPS = 200;
/** The target for typing in 2,000 lines. */
const TYPING_BUDGET_MS = 50;

export async function runAdminEditorBenchmark(): Promise<void> {
  await reportBundle();
  let database: BenchDatabase | undefined;
  if (!process.env.TEST_DATABASE_URL) {
    database = await openBenchDatabase({ poolMax: 1 });
    process.env.TEST_DATABASE_URL = database.url;
  }
  const admin = await startAdminHost();
  try {
    // Typed edits are unsaved: the next page load's "Leave site?" is answered yes.
    admin.page.on('dialog', (dialog) => void dialog.accept());
    await admin.page.goto(await admin.loginLink());
    await admin.page.waitForURL(/\/workflows/);
    const small = await createWorkflow(admin, 'Small', SMALL_WORKFLOW_YAML);
    const large = await createWorkflow(admin, 'Large', LARGE_WORKFLOW_YAML);
    await reportLoadTimes(admin, large);
    for (const [lines, id] of [[19, small], [2_000, large]] as const) {
      await admin.page.goto(`${admin.host.url}/workflows/${id}`);
      reportTyping(lines, await measureTyping(admin.page, KEYSTROKES, KEY_DELAY_MS));
    }
    await reportRedraw(admin.page, `${admin.host.url}/workflows/${small}`);
  } finally {
    await admin.close();
    await database?.close();
  }
}

async function createWorkflow(admin: AdminHost, name: string, yaml: string): Promise<string> {
  const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name, yaml });
  if (created.status !== 201) throw new Error(`could not create the workflow: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

/** Navigation to "ready" (the page's main element visible), alternating the two pages each round. */
async function reportLoadTimes(admin: AdminHost, id: string): Promise<void> {
  const pages = {
    'Memory list (baseline)': { url: `${admin.host.url}/workflows/memory`, ready: 'table.list, .empty' },
    'Workflow editor, 2,000 lines': { url: `${admin.host.url}/workflows/${id}`, ready: '.cm-content .cm-line' },
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(pages).map((name) => [name, []]));
  const assets: Record<string, string[]> = {};
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [name, { url, ready }] of Object.entries(pages)) {
      const context = await admin.browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript((value) => localStorage.setItem('bot.token', value), admin.token('admin'));
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(url);
      await page.locator(ready).first().waitFor({ state: 'visible', timeout: 30_000 });
      // Round 0 warms the host (first compile of routes, first queries); it is not counted.
      if (round > 0) times[name]!.push(performance.now() - started);
      else assets[name] = await loadedAssets(page);
      await context.close();
    }
  }
  console.log(`page load, cold browser cache, navigation to content visible (median of ${ROUNDS}, min-max):`);
  for (const [name, values] of Object.entries(times)) console.log(`  ${name.padEnd(30)} ${summary(values)}`);
  const [baseline, editor] = Object.keys(pages);
  await reportWorkflowChunks(assets[editor!]!, assets[baseline!]!);
}

/** The built assets (file names under /assets/) the page loads. */
async function loadedAssets(page: Page): Promise<string[]> {
  // Lazy chunks (the flow's) may still be on their way when the first content shows.
  await page.waitForLoadState('networkidle');
  const urls = await page.evaluate<string[]>(`performance.getEntriesByType('resource').map((entry) => entry.name)`);
  return urls.flatMap((url) => /\/assets\/([^/?#]+)$/.exec(url)?.[1] ?? []);
}

function reportTyping(lines: number, figures: TypingFigures): void {
  const verdict = lines >= 2_000 ? (figures.p95Ms <= TYPING_BUDGET_MS ? ` (within ${TYPING_BUDGET_MS} ms)` : ` (OVER ${TYPING_BUDGET_MS} ms)`) : '';
  console.log(
    `typing in ${lines} lines, ${figures.keystrokes} keystrokes ${KEY_DELAY_MS} ms apart, input to next frame: median ${figures.medianMs.toFixed(1)} ms, p95 ${figures.p95Ms.toFixed(1)} ms${verdict}, max ${figures.maxMs.toFixed(1)} ms; main-thread CPU ${figures.cpuPerKeystrokeMs.toFixed(1)} ms a keystroke; wall ${figures.perCharacterWallMs.toFixed(1)} ms a character`,
  );
}

async function reportRedraw(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('.cm-content .cm-line').first().waitFor();
  const { medianMs, maxMs } = await measureFlowRedraw(page, REDRAW_STEPS, ROUNDS);
  console.log(`flow redraw at ${REDRAW_STEPS} steps, paste to drawn (median of ${ROUNDS}): ${medianMs.toFixed(0)} ms, max ${maxMs.toFixed(0)} ms`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summary(values: number[]): string {
  return `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
}
