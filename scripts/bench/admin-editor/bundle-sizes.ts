import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const DIST = new URL('../../../host/admin/dist/assets/', import.meta.url);
/** Commit the baseline below was measured on (`git log -1 --format=%h`), before this work on the editor. */
export const BASELINE_COMMIT = 'cbe6c83';
/**
 * gzip KB (level 9) of what the workflow editor page loaded beyond the Memory list page at
 * BASELINE_COMMIT: code-editor.js 141.9 (the "142 KB" CodeMirror chunk), flow-view.js 33.6, and
 * their CSS 0.4 + 0.5.
 */
export const BASELINE_WORKFLOW_KB = 176.4;
/** What the workflow page's own chunks may add over the baseline. */
export const WORKFLOW_BUDGET_KB = 150;

/** gzip KB of one built asset. */
async function gzipKb(file: string): Promise<number> {
  return gzipSync(await readFile(new URL(file, DIST)), { level: 9 }).length / 1000;
}

/** Prints each built asset's gzip KB. */
export async function reportBundle(): Promise<void> {
  console.log('admin bundle (host/admin/dist, `npm run build:admin` first), gzip KB:');
  for (const file of (await readdir(DIST)).sort()) console.log(`  ${file.padEnd(34)} ${(await gzipKb(file)).toFixed(1).padStart(6)}`);
}

/**
 * The chunks the workflow editor loads that the Memory list does not (file names as loaded, from
 * the pages' resource timings): their gzip total against the baseline and the budget.
 */
export async function reportWorkflowChunks(editorAssets: string[], otherAssets: string[]): Promise<void> {
  const own = editorAssets.filter((file) => !otherAssets.includes(file)).sort();
  let total = 0;
  for (const file of own) total += await gzipKb(file);
  const added = total - BASELINE_WORKFLOW_KB;
  console.log(`workflow editor's own chunks (${own.join(', ')}): ${total.toFixed(1)} KB gzip, ${added >= 0 ? '+' : ''}${added.toFixed(1)} KB over ${BASELINE_WORKFLOW_KB} at ${BASELINE_COMMIT} (budget +${WORKFLOW_BUDGET_KB})`);
}
