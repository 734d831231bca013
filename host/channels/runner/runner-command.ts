/**
 * How a channel's runner process is started, per isolation tier (a plugin is treated as hostile):
 * - `sandbox`: inside bubblewrap — new user, mount, PID, network, IPC and UTS namespaces, an
 *   empty environment, a root holding only read-only binds of the runtime and the plugin's files
 *   plus an empty /tmp, no network at all, a seccomp filter (seccomp/seccomp-rules.ts) — and
 *   Node's permission model inside as a second belt.
 * - `reduced`: no bubblewrap; the permission model alone, with an empty environment.
 * The runner's wire to the host is its fd 3, inherited through bubblewrap (runner-frames.ts).
 * Either way, a host running as root starts the runner as an unprivileged uid/gid.
 */
import { existsSync } from 'node:fs';
import { readablePaths, type ReadableTree } from './plugin-read-paths.ts';
import { COMPILERS_ASLEEP_FLAGS } from './runner-tiering.ts';
import { SECCOMP_FD } from './seccomp/seccomp-fd.ts';

export type IsolationTier = 'sandbox' | 'reduced';

export interface RunnerCommandOptions {
  tier: IsolationTier;
  /** What the runner may read (pluginReadPaths). */
  readable: ReadableTree;
  /** The runtime's own files (runtimeFiles); the first is the Node binary. */
  runtime: string[];
  /** Heap limit of the runner's main thread. */
  maxHeapMb: number;
  /** The runner's entry file (runner-bundle.ts). */
  entry: string;
  bwrapPath: string;
  /** The seccomp program (seccompFilter) bubblewrap loads before it starts Node; `sandbox` tier only. */
  seccomp?: Uint8Array | undefined;
}

export interface RunnerCommand {
  command: string;
  args: string[];
  /** Bytes the spawn must hand the command on SECCOMP_FD (passSeccompFilter); the args name that fd. */
  seccomp?: Uint8Array | undefined;
}

const NICE = '/usr/bin/nice';
/** Niceness of runner processes (the host's is 0; 19 is the lowest priority). */
const RUNNER_NICENESS = 10;

/** Size of the sandbox's own /tmp: tmpfs pages are in no process's RSS, so the watchdog cannot see them. */
const TMP_BYTES = 16 * 1024 * 1024;

/**
 * V8 tuned for a small resident set: a runner mostly idles, one per channel, and its memory
 * counts against BOT_SANDBOX_MAX_RSS_MB. The sample channel's runner (bubblewrap included) held
 * 74 MB idle without these and 64 MB with the first two; after a burst of calls, 150 MB and
 * 100 MB. None of them changes what the plugin may do.
 * - Semi-spaces of 1 MB: the young generation otherwise grows to 32 MB each, kept once a
 *   burst of calls has grown it. Costs more frequent (cheap) scavenges.
 * - One V8 worker thread instead of one per core: the runner has one thread of JS, and each
 *   worker thread keeps its own stack and malloc arena.
 * - The optimizing compilers asleep while the plugin loads (runner-tiering.ts).
 */
export const RUNNER_V8_FLAGS = ['--max-semi-space-size=1', '--v8-pool-size=1', ...COMPILERS_ASLEEP_FLAGS] as const;

/**
 * Node inside the runner: reads of `readable` only; no network, child processes, workers,
 * inspector, addons or WASI (none is allowed; without --allow-worker plugin code cannot start a
 * thread outside the model either), and no way to open the inspector by signal.
 */
export function runnerNodeArgs(options: Pick<RunnerCommandOptions, 'readable' | 'maxHeapMb' | 'entry'>): string[] {
  return [
    '--permission',
    ...readablePaths(options.readable).map((file) => `--allow-fs-read=${file}`),
    `--max-old-space-size=${options.maxHeapMb}`,
    ...RUNNER_V8_FLAGS,
    '--disable-sigusr1',
    '--disable-warning=ExperimentalWarning',
    options.entry,
  ];
}

export function runnerCommand(options: RunnerCommandOptions): RunnerCommand {
  const [node] = options.runtime;
  const nodeArgs = runnerNodeArgs(options);
  const command: RunnerCommand =
    options.tier === 'reduced' ? { command: node!, args: nodeArgs } : { command: options.bwrapPath, args: [...bubblewrapArgs(options), '--', node!, ...nodeArgs], seccomp: options.seccomp };
  return withLowerPriority(command);
}

/**
 * Plugin code yields the CPU to the host: a runner busy at start or within a call (which the
 * idle-CPU watchdog does not judge) slows its own channel first. `nice` sets the priority
 * before the runner (and everything it forks) starts, then runs it in its place.
 */
function withLowerPriority({ command, args, seccomp }: RunnerCommand): RunnerCommand {
  return existsSync(NICE) ? { command: NICE, args: ['-n', String(RUNNER_NICENESS), command, ...args], seccomp } : { command, args, seccomp };
}

export function bubblewrapArgs(options: Pick<RunnerCommandOptions, 'readable' | 'runtime' | 'seccomp'>): string[] {
  const binds = [...new Set([...options.runtime, ...options.readable.binds])].flatMap((file) => ['--ro-bind', file, file]);
  const links = options.readable.links.flatMap(([link, target]) => ['--symlink', target, link]);
  return [
    '--unshare-all',
    // --unshare-all only tries the user namespace (a setuid bwrap could skip it): require it, and
    // forbid nested ones, the usual way in to kernel bugs.
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    // Node itself is the namespace's first process, without bubblewrap's reaper in between: the
    // runner may start no process, so there is nothing to reap, and the reaper cost 2 MB of RSS
    // per runner. The host ends a runner with SIGKILL, which reaches a namespace's first process.
    '--as-pid-1',
    '--new-session',
    '--clearenv',
    '--cap-drop',
    'ALL',
    // Loaded last, just before Node starts: the filter binds Node and all it starts, never bwrap's setup.
    ...(options.seccomp ? ['--seccomp', String(SECCOMP_FD)] : []),
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--hostname',
    'channel-runner',
    // The empty /tmp first, bounded: binds that live under /tmp (a test's app root) go on top.
    '--size',
    String(TMP_BYTES),
    '--tmpfs',
    '/tmp',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...binds,
    ...links,
    // The root's own folders (mount points) are a tmpfs too: read-only, so nothing is stored there.
    '--remount-ro',
    '/',
    '--chdir',
    '/',
  ];
}
