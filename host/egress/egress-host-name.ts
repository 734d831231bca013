import { getDomain } from 'tldts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A last label the URL parser would read as a number, making the whole name an IPv4 address. */
const NUMERIC_LABEL = /^(\d+|0x[0-9a-f]*)$/;
const MAX_NAME_LENGTH = 253;
const WILDCARD = '*.';

/**
 * True for a DNS host name a package may declare in `bot.egress`: lower-case ASCII labels
 * (IDNs in their `xn--` form), no port, scheme, path or wildcard, and not an IP address, so
 * every declared host goes through name resolution and its address check.
 * @example isEgressHostName('api.telegram.org') // true; isEgressHostName('127.0.0.1') // false
 */
export function isEgressHostName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return false;
  const labels = name.split('.');
  return labels.every((label) => LABEL.test(label)) && !NUMERIC_LABEL.test(labels.at(-1)!);
}

/**
 * True for an entry of `bot.egress`: a host name, or `*.` and a domain, which stands for every
 * name below that domain (a platform's CDN whose edge hosts vary: `*.fbcdn.net`). The domain
 * must be one somebody owns, not a public suffix from the Public Suffix List, private entries
 * included: `*.com`, `*.co.uk` or `*.cloudfront.net` would let the plugin send to names anybody
 * can register, so to anyone.
 * @example isEgressHostPattern('*.fbcdn.net') // true; isEgressHostPattern('*.github.io') // false
 */
export function isEgressHostPattern(entry: string): boolean {
  if (!entry.startsWith(WILDCARD)) return isEgressHostName(entry);
  const domain = entry.slice(WILDCARD.length);
  return isEgressHostName(domain) && getDomain(domain, { allowPrivateDomains: true }) !== null;
}

/**
 * Whether `host` (lower case, no trailing dot) is one `pattern` allows: the same name, or, for
 * `*.domain`, any name with at least one more label ending in `.domain` (the domain itself is not).
 * @example egressHostMatches('scontent-iad3-1.xx.fbcdn.net', '*.fbcdn.net') // true
 */
export function egressHostMatches(host: string, pattern: string): boolean {
  return pattern.startsWith(WILDCARD) ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;
}
