/**
 * `npm run bench -- admin-editor`: what the workflow editor costs. The admin bundle's gzip size
 * per chunk (against the figures measured on main before the editor), the Workflows editor
 * page's load time in headless Chromium (median of 5, the Memory list page in the same run as
 * the baseline), and typing latency in a 500-line workflow (keydown to the next frame, with
 * performance marks in the page).
 */
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { startAdminHost, type AdminHost } from '../../test/admin-ui/admin-host.ts';
import { openBenchDatabase, type BenchDatabase } from './bench-database.ts';

const DIST = new URL('../../host/admin/dist/assets/', import.meta.url);
/** Measured on main before the editor (commit acc5f93), gzip KB. */
const BEFORE_KB: Record<string, number> = { index: 92.8, 'source-form-page': 125.5, 'index.css': 1.6 };
const ROUNDS = 5;
const KEYSTROKES = 60;

export async function runAdminEditorBenchmark(): Promise<void> {
  await reportBundle();
  let database: BenchDatabase | undefined;
  if (!process.env.TEST_DATABASE_URL) {
    database = await openBenchDatabase({ poolMax: 1 });
    process.env.TEST_DATABASE_URL = database.url;
  }
  const admin = await startAdminHost();
  try {
    await admin.page.goto(await admin.loginLink());
    await admin.page.waitForURL(/\/workflows/);
    const id = await createLongWorkflow(admin);
    await reportLoadTimes(admin, id);
    await reportTyping(admin.page, `${admin.host.url}/workflows/${id}`);
  } finally {
    await admin.close();
    await database?.close();
  }
}

async function reportBundle(): Promise<void> {
  console.log('admin bundle (host/admin/dist, `npm run build:admin` first), gzip KB:');
  for (const file of (await readdir(DIST)).sort()) {
    const kb = gzipSync(await readFile(new URL(file, DIST)), { level: 9 }).length / 1000;
    const chunk = file.replace(/-[\w-]{8}\.(js|css)$/, (_, ext: string) => (ext === 'css' && file.startsWith('index') ? '.css' : ''));
    const before = BEFORE_KB[chunk];
    const lazy = chunk === 'code-editor' || chunk === 'flow-view' || chunk.endsWith('.css') ? ' (loaded on the workflow pages only)' : '';
    console.log(`  ${file.padEnd(34)} ${kb.toFixed(1).padStart(6)}${before === undefined ? ' (new)' : ` (before ${before})`}${chunk === 'index.css' ? '' : lazy}`);
  }
}

/** A valid workflow of 500+ lines: many small tasks, each a step of the flow. */
function longWorkflowYaml(): string {
  const tasks = Array.from({ length: 60 }, (_, index) => `  step_${index}:\n    kind: task\n    description: Step ${index} of a long workflow\n    action: send_text_message\n    inputs:\n      text: '="Step ${index}: " & $input.text'`);
  const flow = Array.from({ length: 60 }, (_, index) => `  - do: step_${index}`);
  const yaml = ['description: A long workflow for the editor benchmark', 'defs:', ...tasks, 'flow:', ...flow].join('\n');
  const lines = yaml.split('\n').length;
  return `${'# padding\n'.repeat(Math.max(0, 500 - lines))}${yaml}\n`;
}

async function createLongWorkflow(admin: AdminHost): Promise<string> {
  const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name: 'Long', yaml: longWorkflowYaml() });
  if (created.status !== 201) throw new Error(`could not create the workflow: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

/** Navigation to "ready" (the page's main element visible), alternating the two pages each round. */
async function reportLoadTimes(admin: AdminHost, id: string): Promise<void> {
  const pages = {
    'Memory list (baseline)': { url: `${admin.host.url}/workflows/memory`, ready: 'table.list, .empty' },
    'Workflow editor, 500 lines': { url: `${admin.host.url}/workflows/${id}`, ready: '.cm-content .cm-line' },
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(pages).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [name, { url, ready }] of Object.entries(pages)) {
      const context = await admin.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const token = admin.token('admin');
      await context.addInitScript((value) => localStorage.setItem('bot.token', value), token);
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(url);
      await page.locator(ready).first().waitFor({ state: 'visible', timeout: 30_000 });
      // Round 0 warms the host (first compile of routes, first queries); it is not counted.
      if (round > 0) times[name]!.push(performance.now() - started);
      await context.close();
    }
  }
  console.log(`page load, cold browser cache, navigation to content visible (median of ${ROUNDS}, min-max):`);
  for (const [name, values] of Object.entries(times)) console.log(`  ${name.padEnd(28)} ${summary(values)}`);
}

async function reportTyping(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const lines = page.locator('.cm-content .cm-line');
  await lines.first().waitFor();
  await lines.nth(5).click();
  await page.keyboard.press('End');
  // In the page (a string: this file is type-checked without the DOM library).
  await page.evaluate(`
    globalThis.editorKeystrokes = [];
    addEventListener('keydown', () => {
      performance.mark('key-start');
      // The frame after the one that handles the key: the text is drawn by then.
      requestAnimationFrame(() => setTimeout(() => editorKeystrokes.push(performance.measure('keystroke', 'key-start').duration), 0));
    }, { capture: true });
  `);
  await page.keyboard.type('x'.repeat(KEYSTROKES), { delay: 40 });
  await page.waitForTimeout(200);
  const durations = await page.evaluate<number[]>('editorKeystrokes');
  const sorted = [...durations].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
  console.log(`typing in the 500-line workflow, ${durations.length} keystrokes, keydown to next frame: median ${median(sorted).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, min-max ${sorted[0]!.toFixed(1)}-${sorted.at(-1)!.toFixed(1)} ms`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summary(values: number[]): string {
  return `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
}
