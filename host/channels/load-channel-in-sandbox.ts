import type { ChannelSandboxOptions } from './sandbox/sandbox-options.ts';
import { ChannelSandbox } from './sandbox/channel-sandbox.ts';
import type { LoadedChannel } from './discovery/discover-channels.ts';
import type { ChannelFile } from './discovery/scan-channel-files.ts';

export type SandboxSettings = Omit<ChannelSandboxOptions, 'file' | 'name'>;

/**
 * The discovery step that runs plugin code: starts the file's own worker pool, where the plugin
 * is imported, checked and constructed, and asks it to describe itself. A failure closes the pool
 * and surfaces the check's code.
 */
export function sandboxLoader(settings: SandboxSettings): (file: ChannelFile) => Promise<LoadedChannel<ChannelSandbox>> {
  return async (file) => {
    const sandbox = await ChannelSandbox.start({ ...settings, file: file.realFile, name: file.file });
    try {
      const description = await sandbox.describe();
      return { description, sandbox, close: () => sandbox.close() };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  };
}
