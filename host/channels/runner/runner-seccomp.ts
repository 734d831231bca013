/**
 * Whether a runner's plugin code runs under the seccomp filter, read from /proc now rather than
 * assumed from the tier: `Seccomp: 2` (filter mode) in the status of each process that runs it.
 * In the sandbox tier those are the processes below bubblewrap (Node; bubblewrap itself stays
 * outside the filter); in the reduced tier, the runner itself, which has none.
 */
import { readFileSync } from 'node:fs';
import { descendantsAndSelf } from './process-tree-usage.ts';
import type { IsolationTier } from './runner-command.ts';

const FILTER_MODE = 2;

/** Undefined when no such process is there to read (not started yet, or just gone). */
export function runnerSeccomp(rootPid: number, tier: IsolationTier): boolean | undefined {
  const pids = tier === 'sandbox' ? descendantsAndSelf(rootPid).slice(1) : [rootPid];
  const modes = pids.map(seccompMode).filter((mode) => mode !== undefined);
  return modes.length === 0 ? undefined : modes.every((mode) => mode === FILTER_MODE);
}

/** The `Seccomp:` field of the process's status (0 none, 1 strict, 2 filter). */
export function seccompMode(pid: number): number | undefined {
  try {
    const match = /^Seccomp:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
