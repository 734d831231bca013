/**
 * A host started with a descriptor left open across exec (a supervisor's pipe, a shell's
 * redirect) must not hand it to its runners: a plugin reads and writes descriptors by number,
 * which no path rule of the sandbox or the permission model stops. The host here is a child
 * process started through a shell holding a secret file open on fd 200.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { maskStrayDescriptors } from '../../host/channels/runner/stray-descriptors.ts';
import { runChildHost } from './run-child-host.ts';

/** High, as a supervisor's are: a low number may be taken over by the runner's own Node before the attack. */
const STRAY_FD = 200;

test('a descriptor the host inherited open across exec never reaches a plugin', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-stray-fd-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const secret = `stray-${process.pid}-${Date.now()}`;
  await writeFile(path.join(dir, 'secret.txt'), secret, { mode: 0o600 });
  // The shell opens the descriptor without close-on-exec, as a supervisor would, then becomes the host.
  const script = `exec ${STRAY_FD}<"$1"; shift; exec "$@"`;
  const host = await runChildHost(t, [{ attack: 'read-fd', fd: STRAY_FD }], (command) => ['bash', ['-c', script, 'bash', path.join(dir, 'secret.txt'), ...command]]);
  assert.equal(host.exitCode, 0, `the host failed:\n${host.stderr}`);
  const report = host.lines.find((entry) => entry.attack === 'read-fd')?.report;
  const outcome = JSON.parse(typeof report === 'string' ? report : '{}') as { ok?: boolean; value?: unknown };
  assert.ok(!JSON.stringify(outcome).includes(secret), `the plugin read the host's inherited descriptor: ${JSON.stringify(outcome)}`);
  // Either refused, or the descriptor is /dev/null there: nothing to read.
  if (outcome.ok) assert.equal(outcome.value, '');
});

test("stray descriptors beyond the spawn's own stdio become /dev/null; those the spawn sets keep their value", () => {
  const stdio = maskStrayDescriptors(['ignore', 'pipe', 'pipe', 'pipe'], [3, 7]);
  assert.equal(stdio.length, 8);
  assert.equal(stdio[3], 'pipe');
  assert.deepEqual(stdio.slice(4, 7), ['ignore', 'ignore', 'ignore']);
  assert.equal(typeof stdio[7], 'number');
  assert.deepEqual(maskStrayDescriptors(['ignore', 'pipe'], []), ['ignore', 'pipe']);
});
