import { isEgressHostName } from '../../egress/egress-host-name.ts';
import { PluginRejection } from './plugin-rejection.ts';

/**
 * The hosts a manifest declares in `"bot": { "egress": [...] }`, lower-cased and without a
 * trailing dot; none when it declares none. Anything but an array of host names rejects the
 * plugin (`BOT_ERR_PLUGIN_EGRESS_INVALID`) before its code runs: a typo must not widen egress.
 * @example checkEgressHosts(['API.telegram.org.']) // ['api.telegram.org']
 */
export function checkEgressHosts(declared: unknown): string[] {
  if (declared === undefined) return [];
  if (!Array.isArray(declared)) throw invalid('bot.egress must be an array of host names');
  return [...new Set(declared.map(checkHost))];
}

function checkHost(entry: unknown, index: number): string {
  const name = typeof entry === 'string' ? entry.toLowerCase().replace(/\.$/, '') : '';
  if (!isEgressHostName(name)) {
    throw invalid(`bot.egress[${index}] must be a host name such as "api.example.com" (no scheme, port, path, wildcard or IP address), got ${String(JSON.stringify(entry)).slice(0, 100)}`);
  }
  return name;
}

function invalid(message: string): PluginRejection {
  return new PluginRejection('BOT_ERR_PLUGIN_EGRESS_INVALID', message);
}
