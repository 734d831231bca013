import type { Logger } from 'pino';
import { channelFingerprint } from './channel-fingerprint.ts';
import { WarmSandboxes } from './warm-sandboxes.ts';
import { ChannelRegistry } from './channel-registry.ts';
import type { ChannelStateStore } from './channel-state-store.ts';
import { discoverChannels } from './discover-channels.ts';
import { readHostProvidedVersions } from './discovery/host-provided-versions.ts';
import { sandboxLoader, type SandboxSettings } from './load-channel-in-sandbox.ts';
import type { ChannelCalls } from './calls/channel-calls.ts';

export interface ChannelRegistryOptions {
  /** Where discovery scans (BOT_APP_ROOT). */
  appRoot: string;
  /** The packages the host installed itself (BOT_CHANNEL_STORE_DIR), scanned after the app root. */
  storeDir?: string;
  /** Where the host's own packages are installed, for the versions it provides to plugins. */
  hostRoot: string;
  sandbox: Omit<SandboxSettings, 'hostServicesFor' | 'logger' | 'onRunnerExit'>;
  /** Told when a channel's runner ends unplanned (metrics). */
  onRunnerExit?: SandboxSettings['onRunnerExit'];
  /** Worker → host services for the channel named (see SandboxSettings.hostServicesFor). */
  hostServicesFor: SandboxSettings['hostServicesFor'];
  /**
   * Runs before each discovery that includes package channels (every rescan, a notice from
   * another instance): the host's package folder is brought to the installed set here, so
   * discovery finds it.
   */
  prepare?(): Promise<void>;
  /** Where operators' enable/disable choices are kept. */
  states: Pick<ChannelStateStore, 'enabledStates' | 'disabledDeclarations'>;
  logger: Logger;
}

/** A registry whose discovery runs each plugin in its own sandbox; call `load()` to discover. */
export function createChannelRegistry(options: ChannelRegistryOptions): ChannelRegistry<ChannelCalls> {
  const providedVersions = readHostProvidedVersions(options.hostRoot);
  const links = { hostRoot: options.hostRoot, privatePaths: options.sandbox.isolation?.privatePaths ?? [] };
  const load = sandboxLoader({
    ...options.sandbox,
    hostServicesFor: options.hostServicesFor,
    logger: options.logger.child({ component: 'sandbox' }),
    ...(options.onRunnerExit ? { onRunnerExit: options.onRunnerExit } : {}),
  });
  // An install's trial start is kept for the rescan that follows it: its runner starts once.
  const warm = new WarmSandboxes(load, channelFingerprint);
  return new ChannelRegistry({
    discover: async (reuse, dormant, include, origins) => {
      // The package folder matters to package channels only: the built-in load before the host
      // serves must not wait for packages to be unpacked.
      if (origins === undefined || origins.includes('package')) await options.prepare?.();
      return discoverChannels({ appRoot: options.appRoot, ...(options.storeDir === undefined ? {} : { storeDir: options.storeDir }), links, providedVersions, load: (file) => warm.load(file), reuse, dormant, include });
    },
    start: load,
    trial: (file) => warm.trial(file),
    closeTrials: () => warm.close(),
    fingerprint: channelFingerprint,
    enabledStates: () => options.states.enabledStates(),
    disabledDeclarations: () => options.states.disabledDeclarations(),
  });
}
