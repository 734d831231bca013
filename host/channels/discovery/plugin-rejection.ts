/**
 * Why discovery refused a channel file, with a stable code. Codes from the sandbox checks
 * (`BOT_ERR_PLUGIN_*` raised inside the worker) use the same shape.
 */
export const DISCOVERY_CODES = {
  BOT_ERR_PLUGIN_MANIFEST_MISSING: 'No package.json was found for the file.',
  BOT_ERR_PLUGIN_PACKAGE_NAME: 'A package under node_modules/bot-channel-* must be named bot-channel-*.',
  BOT_ERR_PLUGIN_PACKAGE_EXPORTS: 'The package must export "." and "./index.channel".',
  BOT_ERR_PLUGIN_PEER_UNSATISFIED: 'A peer dependency range excludes the version the host provides.',
  BOT_ERR_PLUGIN_PEER_UNRESOLVED: 'A peer dependency the host does not provide cannot be resolved from the plugin.',
  BOT_ERR_PLUGIN_DUPLICATE_NAME: 'Another registered channel already has this name.',
  BOT_ERR_PLUGIN_LINK_OUTSIDE: 'A link among the plugin\'s files leads outside it, to something its runner may not read (a system folder, the host\'s files, another channel).',
  BOT_ERR_PLUGIN_EGRESS_INVALID: 'The manifest\'s "bot.egress" is not an array of host names.',
} as const;

export type DiscoveryCode = keyof typeof DISCOVERY_CODES;

export class PluginRejection extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PluginRejection';
  }
}
