/**
 * A host started with a descriptor left open across exec (a supervisor's pipe, a shell's
 * redirect) must not hand it to its runners: a plugin reads and writes descriptors by number,
 * which no path rule of the sandbox or the permission model stops. The host here is a child
 * process started through a shell holding a secret file open on fd 200.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { maskStrayDescriptors } from '../../host/channels/runner/stray-descriptors.ts';
import { HOST_ROOT } from './hostile-runner.ts';

const CHILD_HOST = fileURLToPath(new URL('./child-host.ts', import.meta.url));
/** High, as a supervisor's are: a low number may be taken over by the runner's own Node before the attack. */
const STRAY_FD = 200;

test('a descriptor the host inherited open across exec never reaches a plugin', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-stray-fd-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const secret = `stray-${process.pid}-${Date.now()}`;
  await writeFile(path.join(dir, 'secret.txt'), secret, { mode: 0o600 });
  const attacks = [{ attack: 'read-fd', fd: STRAY_FD }];
  // The shell opens the descriptor without close-on-exec, as a supervisor would, then becomes the host.
  const script = `exec ${STRAY_FD}<"$1"; exec "$2" --import tsx "$3" "$4"`;
  const child = spawn('bash', ['-c', script, 'bash', path.join(dir, 'secret.txt'), process.execPath, CHILD_HOST, JSON.stringify(attacks)], { cwd: HOST_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4_000)));
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  assert.equal(exitCode, 0, `the host failed:\n${stderr}`);
  const [line] = stdout.split('\n').filter((entry) => entry.startsWith('{"attack"'));
  const report = JSON.parse(line ?? '{}') as { report?: string };
  const outcome = JSON.parse(report.report ?? '{}') as { ok?: boolean; value?: unknown };
  assert.ok(!JSON.stringify(outcome).includes(secret), `the plugin read the host's inherited descriptor: ${JSON.stringify(outcome)}`);
  // Either refused, or the descriptor is /dev/null there: nothing to read.
  if (outcome.ok) assert.equal(outcome.value, '');
});

test('stray descriptors beyond the spawn own stdio become /dev/null; those the spawn sets keep their value', () => {
  const stdio = maskStrayDescriptors(['ignore', 'pipe', 'pipe', 'pipe'], [3, 7]);
  assert.equal(stdio.length, 8);
  assert.equal(stdio[3], 'pipe');
  assert.deepEqual(stdio.slice(4, 7), ['ignore', 'ignore', 'ignore']);
  assert.equal(typeof stdio[7], 'number');
  assert.deepEqual(maskStrayDescriptors(['ignore', 'pipe'], []), ['ignore', 'pipe']);
});
