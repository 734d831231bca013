import type { ChannelRuntimeStatus } from '../calls/channel-calls.ts';
import type { ChannelOrigin } from './scan-channel-files.ts';

/** What a channel says about itself once loaded in its sandbox. */
export interface ChannelDescription {
  kind: 'http' | 'websocket';
  name: string;
  settingsJsonSchema: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  /**
   * The handler has a connect step of its own, which the panel offers. Absent from what a channel
   * disabled by an older host declared: read as false until the channel runs again.
   */
  connectable?: boolean;
}

/** A channel loaded in its own sandbox, ready for traffic. */
export interface LoadedChannel<S = unknown> {
  description: ChannelDescription;
  sandbox: S;
  close(): Promise<void>;
  /** Its isolation and runner state, for diagnostics. */
  status?(): ChannelRuntimeStatus;
}

/** One channel file as discovery left it: registered (loaded, or dormant while disabled) or rejected with its code. */
export interface DiscoveryResult<S = unknown> {
  file: string;
  realFile: string;
  origin: ChannelOrigin;
  package: { name: string; version: string } | undefined;
  status: 'registered' | 'rejected';
  name: string | undefined;
  code: string | undefined;
  message: string | undefined;
  loaded: LoadedChannel<S> | undefined;
  /** The sandbox is one already running, handed back by `reuse`: discovery never closes it. */
  reused: boolean;
  /**
   * For a registered channel left unloaded because it is disabled (`dormant`): what it declared
   * when it was disabled. A loaded channel's description is `loaded.description`.
   */
  description?: ChannelDescription;
  /** The host names the package declares in `bot.egress` (none when rejected). */
  egress: string[];
}
