/**
 * How a channel's runner process is started, per isolation tier (DESIGN 5a):
 * - `sandbox`: inside bubblewrap — new user, mount, PID, network, IPC and UTS namespaces, an
 *   empty environment, a root holding only read-only binds of the runtime and the plugin's files
 *   plus an empty /tmp, no network at all — and Node's permission model inside as a second belt.
 * - `reduced`: no bubblewrap; the permission model alone, with an empty environment.
 * Either way, a host running as root starts the runner as an unprivileged uid/gid.
 */
import { readablePaths, type ReadableTree } from './plugin-read-paths.ts';

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
}

export interface RunnerCommand {
  command: string;
  args: string[];
}

/** The fork's IPC channel is the child's fd 3 (stdio: [ignore, pipe, pipe, ipc]). */
const IPC_FD = '3';

/**
 * Node inside the runner: no network, child processes, inspector, addons or WASI (none is
 * allowed), workers for the pool, reads of `readable` only, and no way to open the inspector by
 * signal.
 */
export function runnerNodeArgs(options: Pick<RunnerCommandOptions, 'readable' | 'maxHeapMb' | 'entry'>): string[] {
  return [
    '--permission',
    '--allow-worker',
    ...readablePaths(options.readable).map((file) => `--allow-fs-read=${file}`),
    `--max-old-space-size=${options.maxHeapMb}`,
    '--disable-sigusr1',
    '--disable-warning=ExperimentalWarning',
    // The permission model warns that --allow-worker widens it: the workers are the pool's own.
    '--disable-warning=SecurityWarning',
    options.entry,
  ];
}

export function runnerCommand(options: RunnerCommandOptions): RunnerCommand {
  const [node] = options.runtime;
  const nodeArgs = runnerNodeArgs(options);
  if (options.tier === 'reduced') return { command: node!, args: nodeArgs };
  // --clearenv drops the variables spawn sets for the fork's IPC channel: set them again inside.
  const ipc = ['--setenv', 'NODE_CHANNEL_FD', IPC_FD, '--setenv', 'NODE_CHANNEL_SERIALIZATION_MODE', 'advanced'];
  return { command: options.bwrapPath, args: [...bubblewrapArgs(options), ...ipc, '--', node!, ...nodeArgs] };
}

export function bubblewrapArgs(options: Pick<RunnerCommandOptions, 'readable' | 'runtime'>): string[] {
  const binds = [...new Set([...options.runtime, ...options.readable.binds])].flatMap((file) => ['--ro-bind', file, file]);
  const links = options.readable.links.flatMap(([link, target]) => ['--symlink', target, link]);
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--cap-drop',
    'ALL',
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--hostname',
    'channel-runner',
    // The empty /tmp first: binds that live under /tmp (a test's app root) go on top of it.
    '--tmpfs',
    '/tmp',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...binds,
    ...links,
    '--chdir',
    '/',
  ];
}
