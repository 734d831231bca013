/**
 * The seccomp tests' probe (test/fixtures/seccomp-probe/probe.c): a static program that makes one
 * raw system call, built once per test file and run inside bubblewrap exactly as a runner is
 * sandboxed (bubblewrapArgs, the filter handed over on fd 4, a uid of its own under a root host),
 * with the probe's folder bound read-only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bubblewrapArgs } from '../../host/channels/runner/runner-command.ts';
import { allocateRunnerIdentity } from '../../host/channels/runner/runner-identity.ts';
import { runtimeFiles } from '../../host/channels/runner/runtime-files.ts';
import { passSeccompFilter, withSeccompStdio } from '../../host/channels/runner/seccomp/seccomp-fd.ts';

const SOURCE = fileURLToPath(new URL('../fixtures/seccomp-probe/probe.c', import.meta.url));

/** Why the probe cannot be built here (the tests then skip), or false. */
export const NO_COMPILER: string | false = spawnSync('gcc', ['--version'], { stdio: 'ignore' }).status === 0 ? false : 'gcc is not installed: the seccomp probe (a C program) cannot be built';

export interface Probe {
  /** What the call got: `ok`, or the errno's name (`EPERM`). */
  run(name: string, filter: Uint8Array | undefined): Promise<string>;
  remove(): Promise<void>;
}

/** Builds the probe (gcc -static) into a folder of its own that any uid can read; runs it with `bwrapPath`. */
export async function buildProbe(bwrapPath: string): Promise<Probe> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-seccomp-probe-'));
  const binary = path.join(dir, 'probe');
  const built = spawnSync('gcc', ['-static', '-O1', '-Wall', '-o', binary, SOURCE], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`gcc could not build the probe: ${built.stderr}`);
  await chmod(dir, 0o755);
  return { run: (name, filter) => runProbe(bwrapPath, dir, binary, name, filter), remove: () => rm(dir, { recursive: true, force: true }) };
}

async function runProbe(bwrapPath: string, dir: string, binary: string, name: string, filter: Uint8Array | undefined): Promise<string> {
  const args = [...bubblewrapArgs({ readable: { binds: [dir], links: [] }, runtime: runtimeFiles(), seccomp: filter }), '--', binary, name];
  const identity = allocateRunnerIdentity();
  try {
    const child = spawn(bwrapPath, args, { stdio: withSeccompStdio(['ignore', 'pipe', 'pipe'], filter), env: {}, ...identity.spawn });
    passSeccompFilter(child, filter);
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    const match = new RegExp(`^${name} (?:ok -?\\d+|errno (\\w+) \\d+)$`, 'm').exec(output);
    if (code !== 0 || !match) throw new Error(`the probe ${name} failed (exit ${code}): ${output.trim()}`);
    return match[1] ?? 'ok';
  } finally {
    identity.release();
  }
}
