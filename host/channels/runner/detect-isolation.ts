/**
 * Which isolation tier this host can give its channel runners: `sandbox` when bubblewrap starts
 * Node here under the runners' seccomp filter (installed, user namespaces allowed, the runtime
 * readable by the runner's uid, seccomp filters supported, an architecture the filter knows),
 * else `reduced` with the reason. Probed once per process by starting the real thing: Node in the
 * sandbox reads its own /proc status through the thread pool and fails unless the filter holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { landlockNote } from './landlock-note.ts';
import { bubblewrapArgs, type IsolationTier } from './runner-command.ts';
import { allocateRunnerIdentity } from './runner-identity.ts';
import { runtimeFiles } from './runtime-files.ts';
import { passSeccompFilter, withSeccompStdio } from './seccomp/seccomp-fd.ts';
import { seccompFilter } from './seccomp/seccomp-filter.ts';

export interface Isolation {
  tier: IsolationTier;
  /** Why the tier is `reduced`; absent for `sandbox`. */
  reason: string | undefined;
  bwrapPath: string;
  /** The seccomp program runners start under: set in the `sandbox` tier, whose probe ran under it. */
  seccomp: Uint8Array | undefined;
  /** The tier's layers, for diagnostics: `bubblewrap, seccomp; landlock: …`. */
  detail: string;
}

const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];
const PROBE_TIMEOUT_MS = 15_000;
/** Node's part of the probe: async fs I/O (the thread pool) under the filter, which must be in force. */
const PROBE_SCRIPT = `require('node:fs').promises.readFile('/proc/self/status', 'utf8').then((status) => {
  if (!/^Seccomp:\\s*2$/m.test(status)) { console.error('the seccomp filter is not in force'); process.exitCode = 1; }
});`;
const MAX_STDERR_CHARS = 4_096;

let probed: Promise<Isolation> | undefined;

/**
 * The tier, probed at the first call. `bwrapPath` overrides the search (tests make it
 * unavailable), `arch` the architecture the filter is built for (tests name one it does not know).
 */
export function detectIsolation(options: { bwrapPath?: string; arch?: string } = {}): Promise<Isolation> {
  if (options.bwrapPath !== undefined || options.arch !== undefined) return probe(options.bwrapPath ?? findBwrap(), options.arch ?? process.arch);
  probed ??= probe(findBwrap(), process.arch);
  return probed;
}

function findBwrap(): string {
  return BWRAP_CANDIDATES.find((candidate) => existsSync(candidate)) ?? '';
}

async function probe(bwrapPath: string, arch: string): Promise<Isolation> {
  const landlock = landlockNote();
  const reduced = (reason: string): Isolation => ({ tier: 'reduced', reason, bwrapPath, seccomp: undefined, detail: `permission model only; ${landlock}` });
  if (!bwrapPath || !existsSync(bwrapPath)) return reduced('bubblewrap (bwrap) is not installed; install the Debian package "bubblewrap"');
  const filter = seccompFilter(arch);
  if (!filter.ok) return reduced(filter.reason);
  const failure = await startProbe(bwrapPath, filter.program);
  if (failure !== undefined) return reduced(`bubblewrap with the seccomp filter cannot start Node here: ${failure}`);
  return { tier: 'sandbox', reason: undefined, bwrapPath, seccomp: filter.program, detail: `bubblewrap, seccomp; ${landlock}` };
}

/** Node in the sandbox as a runner is started (as an id of its own when the host is root); the failure, if any. */
async function startProbe(bwrapPath: string, filter: Uint8Array): Promise<string | undefined> {
  const runtime = runtimeFiles();
  const args = [...bubblewrapArgs({ readable: { binds: [], links: [] }, runtime, seccomp: filter }), '--', runtime[0]!, '-e', PROBE_SCRIPT];
  const identity = allocateRunnerIdentity();
  try {
    return await new Promise<string | undefined>((resolve) => {
      let child: ChildProcess;
      try {
        const stdio = withSeccompStdio(['ignore', 'ignore', 'pipe'], filter);
        child = spawn(bwrapPath, args, { stdio, env: {}, timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL', ...identity.spawn });
      } catch (error) {
        return resolve((error as Error).message);
      }
      passSeccompFilter(child, filter);
      let stderr = '';
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
      });
      child.on('error', (error) => resolve(error.message));
      child.on('close', (code, signal) => resolve(code === 0 ? undefined : stderr.trim().split('\n')[0] || `exited with ${signal ?? code}`));
    });
  } finally {
    identity.release();
  }
}
