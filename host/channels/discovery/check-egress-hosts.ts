import { isEgressHostPattern } from '../../egress/egress-host-name.ts';
import { PluginRejection } from './plugin-rejection.ts';

/**
 * The hosts a manifest declares in `"bot": { "egress": [...] }`, lower-cased and without a
 * trailing dot; none when it declares none. An entry is a host name, or `*.` and a registrable
 * domain (its owner's names below it). Anything else rejects the plugin
 * (`BOT_ERR_PLUGIN_EGRESS_INVALID`) before its code runs: a typo must not widen egress.
 * @example checkEgressHosts(['API.telegram.org.']) // ['api.telegram.org']
 */
export function checkEgressHosts(declared: unknown): string[] {
  if (declared === undefined) return [];
  if (!Array.isArray(declared)) throw invalid('bot.egress must be an array of host names (or *.domain patterns)');
  return [...new Set(declared.map(checkHost))];
}

function checkHost(entry: unknown, index: number): string {
  const name = typeof entry === 'string' ? entry.toLowerCase().replace(/\.$/, '') : '';
  if (!isEgressHostPattern(name)) {
    throw invalid(`bot.egress[${index}] must be a host name such as "api.example.com" (no scheme, port, path or IP address), or "*." and a registrable domain such as "*.cdn.example.com" (no other wildcard, no public suffix), got ${String(JSON.stringify(entry)).slice(0, 100)}`);
  }
  return name;
}

function invalid(message: string): PluginRejection {
  return new PluginRejection('BOT_ERR_PLUGIN_EGRESS_INVALID', message);
}
