import type { HostServices } from '@bot-ai/api';
import type { ChannelCalls, ChannelRuntimeStatus } from './calls/channel-calls.ts';
import type { LoadedChannel } from './discovery/discovered-channel.ts';
import type { ChannelFile } from './discovery/scan-channel-files.ts';
import { ChannelRunner } from './runner/channel-runner.ts';
import { detectIsolation } from './runner/detect-isolation.ts';
import type { RunnerLimits } from './runner/runner-limits.ts';
import { BuiltinChannelPool } from './builtin-pool/builtin-channel-pool.ts';
import { SandboxError } from './plugin-side/sandbox-error.ts';
import type { BuiltinChannelPoolOptions } from './builtin-pool/builtin-pool-options.ts';
import { sandboxSettingsFrom } from './sandbox-settings-from-config.ts';

/** How package and local channels are isolated (each plugin is hostile: its own runner process); built-in channels run in host threads. */
export interface IsolationSettings {
  /**
   * `strict` refuses to start a channel without the bubblewrap sandbox (BOT_ISOLATION).
   * `threads` runs every channel in host threads as before isolation: only the ingest benchmark
   * asks for it, to measure what the runner costs; no configuration reaches it.
   */
  mode: 'auto' | 'strict' | 'threads';
  /** Where bubblewrap is; tests point it at nothing to get the `reduced` tier. Default: searched. */
  bwrapPath?: string;
  limits: RunnerLimits;
  restartDelay: { initialMs: number; maxMs: number };
  /** Folders of the host no runner reads, wherever a plugin's links lead (the data directory). */
  privatePaths?: string[];
  /**
   * `false` starts sandboxed runners without their seccomp filter: only the ingest benchmark asks
   * for it, to measure what the filter costs; no configuration reaches it.
   */
  seccomp?: false;
}

export type SandboxSettings = Omit<BuiltinChannelPoolOptions, 'file' | 'name' | 'hostServices'> & {
  /** Default: BOT_SANDBOX_START_TIMEOUT_MS's default. */
  startTimeoutMs?: number;
  /** Default: the `BOT_ISOLATION` and `BOT_SANDBOX_*` defaults. */
  isolation?: IsolationSettings;
  /**
   * The worker → host services of one channel. `channelName` answers once the plugin has
   * described itself, so a service can refuse a plugin asking about another channel's sources.
   */
  hostServicesFor(channelName: () => string | undefined): HostServices;
  /** Told when a channel's runner ends unplanned (metrics); `channel` is its name once known. */
  onRunnerExit?(channel: string, reason: string): void;
};

/**
 * The largest frame a runner may send the host: an answer (decoded events) or an egress request
 * (up to BOT_EGRESS_MAX_REQUEST_BYTES, 10 MiB by default, base64 in the frame), with room. A
 * runner sending more is ended.
 */
const RUNNER_MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** A channel loaded for traffic, with its runtime state for diagnostics. */
export type LoadedSandbox = LoadedChannel<ChannelCalls> & { status(): ChannelRuntimeStatus };

/**
 * The discovery step that runs plugin code: starts the file's own runner (package and local
 * channels: a process in the sandbox) or thread pool (the SDK's built-in channels), where the
 * plugin is imported, checked and constructed, and asks it to describe itself. A failure closes
 * it and surfaces the check's code.
 */
export function sandboxLoader(settings: SandboxSettings): (file: ChannelFile) => Promise<LoadedSandbox> {
  return async (file) => {
    let channelName: string | undefined;
    const hostServices = settings.hostServicesFor(() => channelName);
    const inHost = file.origin === 'builtin' || settings.isolation?.mode === 'threads';
    const started = inHost ? await startInHost(settings, file, hostServices) : await startRunner(settings, file, hostServices, () => channelName);
    try {
      const description = await started.calls.describe();
      channelName = description.name;
      return { description, sandbox: started.calls, close: () => started.calls.close(), status: started.status };
    } catch (error) {
      await started.calls.close();
      throw error;
    }
  };
}

interface Started {
  calls: ChannelCalls;
  status(): ChannelRuntimeStatus;
}

/** Trusted code shipped inside the SDK: worker threads of the host. */
async function startInHost(settings: SandboxSettings, file: ChannelFile, hostServices: HostServices): Promise<Started> {
  const { hostServicesFor: _services, isolation: _isolation, onRunnerExit: _onExit, ...options } = settings;
  const pool = await BuiltinChannelPool.start({ ...options, hostServices, file: file.realFile, name: file.file });
  const status: ChannelRuntimeStatus = { isolation: 'builtin', isolationReason: undefined, isolationDetail: undefined, seccomp: undefined, state: 'running', pid: process.pid, restarts: 0, lastExit: undefined };
  return { calls: pool, status: () => status };
}

async function startRunner(settings: SandboxSettings, file: ChannelFile, hostServices: HostServices, channelName: () => string | undefined): Promise<Started> {
  const defaults = sandboxSettingsFrom();
  const wanted = settings.isolation ?? defaults.isolation!;
  const probed = await detectIsolation(wanted.bwrapPath === undefined ? {} : { bwrapPath: wanted.bwrapPath });
  const isolation = wanted.seccomp === false && probed.tier === 'sandbox' ? { ...probed, seccomp: undefined, detail: 'bubblewrap, seccomp off (benchmark)' } : probed;
  if (isolation.tier !== 'sandbox' && wanted.mode === 'strict') {
    throw new SandboxError('BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE', `${file.file}: BOT_ISOLATION=strict and ${isolation.reason}`);
  }
  // maxThreads and idleTimeoutMs size the host's thread pools only: a runner has one thread.
  const { callTimeoutMs, startTimeoutMs = defaults.startTimeoutMs!, hostCallTimeoutMs, maxHeapMb, maxQueue } = settings;
  const runner = await ChannelRunner.start({
    file: file.realFile,
    label: file.file,
    isolation,
    limits: { callTimeoutMs, startTimeoutMs, maxHeapMb, maxQueue, ...(hostCallTimeoutMs === undefined ? {} : { hostCallTimeoutMs }) },
    maxFrameBytes: RUNNER_MAX_FRAME_BYTES,
    hostServices,
    logger: settings.logger,
    ...(settings.frameDelivery ? { frameDelivery: settings.frameDelivery } : {}),
    watchdog: wanted.limits,
    restartDelay: wanted.restartDelay,
    privatePaths: wanted.privatePaths ?? [],
    onExit: (reason) => settings.onRunnerExit?.(channelName() ?? file.file, reason),
  });
  return { calls: runner, status: () => runner.status() };
}
