import { SANDBOX_ERROR_CODES } from '../channels/plugin-side/sandbox-error-codes.ts';
import type { ErrorCodeEntry } from './error-code-entry.ts';

/**
 * The codes of a channel plugin's life in the host: discovery's checks, the sandbox's checks and
 * calls, and the runner. Plugin messages can hold anything (paths, payloads), so none is exposed.
 * The sandbox's rows are declared plugin-side (host/channels/plugin-side/sandbox-error-codes.ts),
 * because the runner bundle needs them and may import plugin-side code only; they are spread in
 * here, so each is written once.
 */
export const PLUGIN_ERROR_CODES = {
  // Checks discovery makes before any plugin code runs.
  BOT_ERR_PLUGIN_MANIFEST_MISSING: { status: 500, expose: false, description: 'No package.json was found for the file.' },
  BOT_ERR_PLUGIN_PACKAGE_NAME: { status: 500, expose: false, description: 'A package under node_modules/bot-channel-* must be named bot-channel-*.' },
  BOT_ERR_PLUGIN_PACKAGE_EXPORTS: { status: 500, expose: false, description: 'The package must export "." and "./index.channel".' },
  BOT_ERR_PLUGIN_PEER_UNSATISFIED: { status: 500, expose: false, description: 'A peer dependency range excludes the version the host provides.' },
  BOT_ERR_PLUGIN_PEER_UNRESOLVED: { status: 500, expose: false, description: 'A peer dependency the host does not provide cannot be resolved from the plugin.' },
  BOT_ERR_PLUGIN_DUPLICATE_NAME: { status: 500, expose: false, description: 'Another registered channel already has this name.' },
  BOT_ERR_PLUGIN_LINK_OUTSIDE: { status: 500, expose: false, description: "A link among the plugin's files leads outside it, to something its runner may not read (a system folder, the host's files, another channel)." },
  BOT_ERR_PLUGIN_EGRESS_INVALID: { status: 500, expose: false, description: 'The manifest\'s "bot.egress" is not an array of host names and `*.domain` patterns (a pattern\'s domain may not be a public suffix).' },
  BOT_ERR_PLUGIN_LOAD_FAILED: { status: 500, expose: false, description: 'Loading the channel failed with an error that has no code of its own.' },
  // The sandbox's own rows (checks in a worker before a channel is registered, calls into a
  // loaded channel), with the classes the host reads of some of them.
  ...SANDBOX_ERROR_CODES,
  BOT_ERR_PLUGIN_QUEUE_FULL: { ...SANDBOX_ERROR_CODES.BOT_ERR_PLUGIN_QUEUE_FULL, notDelivered: true, hostOnly: true },
  BOT_ERR_PLUGIN_SEND_NOT_STARTED: { ...SANDBOX_ERROR_CODES.BOT_ERR_PLUGIN_SEND_NOT_STARTED, notDelivered: true, hostOnly: true },
  BOT_ERR_PLUGIN_SANDBOX_CLOSED: { ...SANDBOX_ERROR_CODES.BOT_ERR_PLUGIN_SANDBOX_CLOSED, notDelivered: true, hostOnly: true, sandboxClosing: true },
  BOT_ERR_PLUGIN_RUNNER_DOWN: { ...SANDBOX_ERROR_CODES.BOT_ERR_PLUGIN_RUNNER_DOWN, notDelivered: true, hostOnly: true },
  BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE: { ...SANDBOX_ERROR_CODES.BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE, notDelivered: true, hostOnly: true },
  // The wire between the host and a runner.
  BOT_ERR_PLUGIN_RUNNER_PROTOCOL: { status: 500, expose: false, description: 'A frame between the host and a channel runner is too long or not JSON: the peer is broken or hostile, and the runner is stopped.' },
} as const satisfies Record<string, ErrorCodeEntry>;
