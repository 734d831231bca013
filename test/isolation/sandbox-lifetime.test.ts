/**
 * A sandbox ends with its host. The runner is its sandbox's first process (bubblewrap runs no
 * reaper above it), and what ends it when the host SIGKILLs bubblewrap, or dies, is the signal its
 * parent's death sends it. Code that got past V8 and the permission model could clear that signal
 * with one system call, prctl(PR_SET_PDEATHSIG, 0), and then outlive the host: reparented to the
 * machine's init, out of every watchdog's tree, holding the host's pipes. The seccomp filter
 * refuses the call. This runs a static program making it inside the runners' bubblewrap and
 * filter, then kills bubblewrap as the host does.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { detectIsolation } from '../../host/channels/runner/detect-isolation.ts';
import { descendantsAndSelf } from '../../host/channels/runner/process-tree-usage.ts';
import { bubblewrapArgs } from '../../host/channels/runner/runner-command.ts';
import { allocateRunnerIdentity } from '../../host/channels/runner/runner-identity.ts';
import { runtimeFiles } from '../../host/channels/runner/runtime-files.ts';
import { passSeccompFilter, withSeccompStdio } from '../../host/channels/runner/seccomp/seccomp-fd.ts';
import { isAlive, waitFor } from './hostile-runner.ts';

const SURVIVOR_C = `#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
  int r = prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
  printf("prctl %d\\n", r);
  fflush(stdout);
  for (;;) pause();
}
`;

/** Alive and not a zombie waiting for its reaper. */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
}

const NO_COMPILER = spawnSync('gcc', ['--version'], { stdio: 'ignore' }).status === 0 ? false : 'gcc is not installed';

test('sandboxed code that clears its parent-death signal still ends when the host SIGKILLs bubblewrap', { skip: NO_COMPILER }, async (t) => {
  const isolation = await detectIsolation();
  if (isolation.tier !== 'sandbox') return t.skip(`no sandbox tier here: ${isolation.reason}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-review-pdeathsig-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'survivor.c'), SURVIVOR_C);
  const binary = path.join(dir, 'survivor');
  const built = spawnSync('gcc', ['-static', '-O1', '-o', binary, path.join(dir, 'survivor.c')], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  await chmod(dir, 0o755);

  const identity = allocateRunnerIdentity();
  t.after(() => identity.release());
  const filter = isolation.seccomp!;
  const args = [...bubblewrapArgs({ readable: { binds: [dir], links: [] }, runtime: runtimeFiles(), seccomp: filter }), '--', binary];
  const child = spawn(isolation.bwrapPath, args, { stdio: withSeccompStdio(['ignore', 'pipe', 'pipe'], filter), env: {}, detached: true, ...identity.spawn });
  passSeccompFilter(child, filter);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await waitFor('the sandboxed program has made its call', () => /^prctl -?\d+$/m.test(output), 15_000);
  const inside = descendantsAndSelf(child.pid!).slice(1);
  assert.ok(inside.length > 0, 'bubblewrap has processes below it');
  // Whatever is left is killed after the test, so a failing run leaves nothing behind.
  t.after(() => inside.filter(isAlive).forEach((pid) => process.kill(pid, 'SIGKILL')));

  process.kill(child.pid!, 'SIGKILL'); // as RunnerProcess.kill does
  await sleep(1_000);
  const survivors = inside.filter(running);
  assert.deepEqual(survivors, [], `sandboxed processes outlived the host's SIGKILL of bubblewrap (the program's prctl: ${output.trim()})`);
});
