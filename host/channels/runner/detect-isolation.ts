/**
 * Which isolation tier this host can give its channel runners: `sandbox` when bubblewrap starts
 * Node here (installed, user namespaces allowed, the runtime readable by the runner's uid), else
 * `reduced` with the reason. Probed once per process by starting the real thing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { bubblewrapArgs, type IsolationTier } from './runner-command.ts';
import { allocateRunnerIdentity } from './runner-identity.ts';
import { runtimeFiles } from './runtime-files.ts';

export interface Isolation {
  tier: IsolationTier;
  /** Why the tier is `reduced`; absent for `sandbox`. */
  reason: string | undefined;
  bwrapPath: string;
}

const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];
const PROBE_TIMEOUT_MS = 15_000;

let probed: Promise<Isolation> | undefined;

/** The tier, probed at the first call; `bwrapPath` overrides the search (tests make it unavailable). */
export function detectIsolation(options: { bwrapPath?: string } = {}): Promise<Isolation> {
  if (options.bwrapPath !== undefined) return probe(options.bwrapPath);
  probed ??= probe(BWRAP_CANDIDATES.find((candidate) => existsSync(candidate)) ?? '');
  return probed;
}

async function probe(bwrapPath: string): Promise<Isolation> {
  const reduced = (reason: string): Isolation => ({ tier: 'reduced', reason, bwrapPath });
  if (!bwrapPath || !existsSync(bwrapPath)) return reduced('bubblewrap (bwrap) is not installed; install the Debian package "bubblewrap"');
  const runtime = runtimeFiles();
  const args = [...bubblewrapArgs({ readable: { binds: [], links: [] }, runtime }), '--', runtime[0]!, '-e', '0'];
  // As a runner is started: as an id of its own when the host is root.
  const probeIdentity = allocateRunnerIdentity();
  const failure = await new Promise<string | undefined>((resolve) => {
    execFile(bwrapPath, args, { timeout: PROBE_TIMEOUT_MS, env: {}, ...probeIdentity.spawn }, (error, _stdout, stderr) => {
      resolve(error ? (String(stderr).trim().split('\n')[0] || error.message) : undefined);
    });
  }).finally(() => probeIdentity.release());
  return failure === undefined ? { tier: 'sandbox', reason: undefined, bwrapPath } : reduced(`bubblewrap cannot start Node here: ${failure}`);
}
