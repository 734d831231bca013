/**
 * `npm run channel:check` (scripts/channel-check.ts) runs the author kit on a package through the host: discovery's checks,
 * a start in its sandbox, and the kit's checks through the runner and the host's egress.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CARELESS = 'test/fixtures/channel-packages/bot-channel-careless';

async function channelCheck(target: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/channel-check.ts', target], { cwd: ROOT, timeout: 120_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

test('the sample channel passes in its sandbox: exit 0, with the discovery and sandbox lines', async () => {
  const { code, output } = await channelCheck('bot-channel-sample');
  assert.equal(code, 0, output);
  assert.match(output, /^ok {4}discovery: plugins\/bot-channel-sample\/dist\/index\.channel\.js passes/m);
  assert.match(output, /^ok {4}starts in its sandbox \((sandbox|reduced)\)/m);
  assert.match(output, /^ok {4}a rate-limited send \(HTTP 429\) asks to retry after 3000 ms$/m);
  assert.match(output, /channel "sample": all \d+ checks passed/);
});

test('a channel that skips its signature check and lets an echo through fails: exit 1, the failures named', async () => {
  const { code, output } = await channelCheck(CARELESS);
  assert.equal(code, 1, output);
  assert.match(output, /^FAIL {2}text\.json: refused with no signature — not refused \(accepted\): the signature is not checked$/m);
  assert.match(output, /^FAIL {2}echo\.json: The platform echoes the bot's own message: noise — 1 events \(m-2\), expected 0/m);
  assert.match(output, /channel "careless": 7 of \d+ checks FAILED/);
});

test('a folder that is not a package cannot be checked: exit 2 with the reason', async () => {
  const { code, output } = await channelCheck('test/fixtures/no-such-package');
  assert.equal(code, 2, output);
  assert.match(output, /channel:check: no package\.json in /);
});
