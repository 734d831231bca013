import type { HostServices } from '@bot-ai/api';
import type { ChannelSandboxOptions } from './sandbox/sandbox-options.ts';
import { ChannelSandbox } from './sandbox/channel-sandbox.ts';
import type { LoadedChannel } from './discovery/discover-channels.ts';
import type { ChannelFile } from './discovery/scan-channel-files.ts';

export type SandboxSettings = Omit<ChannelSandboxOptions, 'file' | 'name' | 'hostServices'> & {
  /**
   * The worker → host services of one channel. `channelName` answers once the plugin has
   * described itself, so a service can refuse a plugin asking about another channel's sources.
   */
  hostServicesFor(channelName: () => string | undefined): HostServices;
};

/**
 * The discovery step that runs plugin code: starts the file's own worker pool, where the plugin
 * is imported, checked and constructed, and asks it to describe itself. A failure closes the pool
 * and surfaces the check's code.
 */
export function sandboxLoader(settings: SandboxSettings): (file: ChannelFile) => Promise<LoadedChannel<ChannelSandbox>> {
  return async (file) => {
    const { hostServicesFor, ...options } = settings;
    let channelName: string | undefined;
    const hostServices = hostServicesFor(() => channelName);
    const sandbox = await ChannelSandbox.start({ ...options, hostServices, file: file.realFile, name: file.file });
    try {
      const description = await sandbox.describe();
      channelName = description.name;
      return { description, sandbox, close: () => sandbox.close() };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  };
}
