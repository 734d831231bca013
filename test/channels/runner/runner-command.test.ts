import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { RUNNER_V8_FLAGS, runnerNodeArgs } from '../../../host/channels/runner/runner-command.ts';

const run = promisify(execFile);

/**
 * Churns short-lived objects while a window of them survives each scavenge, which makes V8 grow
 * the young generation to its limit, then prints the young generation's size once the churn is
 * over: read at once, on a loaded machine it held pages in passing (up to 4.7 MB, given back
 * within 200 ms; 2 MB or less once settled, in 120 runs beside three busy loops).
 */
const YOUNG_GENERATION_SCRIPT = `
const v8 = require('node:v8');
const window = new Array(50000);
for (let i = 0; i < 3e6; i++) window[i % window.length] = { i, text: 'x' + i };
setTimeout(() => {
  const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  process.stdout.write(String(newSpace.space_size));
}, 200);
`;

/** Two semi-spaces of 1 MB; Node's default lets the young generation grow to tens of MB. */
const MAX_YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;

test('the runner runs its entry with the small-heap V8 flags, inside the permission model and its heap limit', () => {
  const args = runnerNodeArgs({ readable: { binds: ['/plugin'], links: [] }, maxHeapMb: 64, entry: '/bundle/runner-main.js' });
  for (const flag of RUNNER_V8_FLAGS) assert.ok(args.includes(flag), `${flag} is on the runner's command line`);
  assert.ok(RUNNER_V8_FLAGS.includes('--max-semi-space-size=1'));
  assert.equal(args[0], '--permission');
  assert.ok(args.includes('--allow-fs-read=/plugin'));
  assert.ok(args.includes('--max-old-space-size=64'));
  assert.ok(args.includes('--disable-sigusr1'));
  assert.ok(!args.some((arg) => /^--(allow-(child-process|worker|addons|wasi|net)|expose[-_]gc|jitless|lite-mode)\b/.test(arg)), args.join(' '));
  assert.equal(args.at(-1), '/bundle/runner-main.js');
});

test("Node accepts the runner's command line, and its young generation stays small under churn", async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'runner-command-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const entry = path.join(dir, 'young-generation.cjs');
  await writeFile(entry, YOUNG_GENERATION_SCRIPT);
  const args = runnerNodeArgs({ readable: { binds: [dir], links: [] }, maxHeapMb: 64, entry });
  // An unknown flag would make Node exit at once ("bad option"): execFile rejects then.
  const { stdout } = await run(process.execPath, args, { env: {} });
  const youngGenerationBytes = Number(stdout);
  assert.ok(youngGenerationBytes > 0, `the script printed the young generation's size: ${stdout}`);
  assert.ok(youngGenerationBytes <= MAX_YOUNG_GENERATION_BYTES, `young generation of ${youngGenerationBytes} bytes`);
});
