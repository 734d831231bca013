/**
 * How the seccomp program reaches bubblewrap: on an extra descriptor of the spawn, fd 4 (after
 * the runner's wire on fd 3), which `--seccomp 4` names. bubblewrap reads it to its end and
 * closes it before it starts Node, so the runner never holds it; a file on disk would have to be
 * kept somewhere the runner's uid can read, and could change between a check and the read.
 */
import type { ChildProcess, StdioOptions } from 'node:child_process';
import type { Duplex } from 'node:stream';

export const SECCOMP_FD = 4;

type StdioEntry = Extract<StdioOptions, unknown[]>[number];

/**
 * `stdio` with a pipe at SECCOMP_FD when there is a filter (entries between stay closed).
 * @example
 * spawn(command, args, { stdio: withSeccompStdio(['ignore', 'pipe', 'pipe', 'pipe'], filter) });
 */
export function withSeccompStdio(stdio: StdioEntry[], filter: Uint8Array | undefined): StdioEntry[] {
  if (!filter) return stdio;
  if (stdio.length > SECCOMP_FD) throw new RangeError(`fd ${SECCOMP_FD} is already in use by the spawn's stdio`);
  return [...stdio, ...Array<StdioEntry>(SECCOMP_FD - stdio.length).fill('ignore'), 'pipe'];
}

/** Hands `filter` to the child spawned with withSeccompStdio: written, then ended (bubblewrap reads to EOF). */
export function passSeccompFilter(child: ChildProcess, filter: Uint8Array | undefined): void {
  const pipe = child.stdio[SECCOMP_FD] as Duplex | null | undefined;
  if (!filter || !pipe) return;
  // A bubblewrap that fails before it reads closes its end: its exit says why, not this write.
  pipe.on('error', () => {});
  // Read to the end too, so the host's side closes once bubblewrap has closed its own.
  pipe.resume();
  pipe.end(filter);
}
