import { getDomain } from 'tldts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A last label the URL parser would read as a number, making the whole name an IPv4 address. */
const NUMERIC_LABEL = /^(\d+|0x[0-9a-f]*)$/;
const MAX_NAME_LENGTH = 253;
const WILDCARD = '*.';
/** Public suffixes of the Public Suffix List count as such, its private section included (`github.io`, `s3.amazonaws.com`). */
const SUFFIX_RULES = { allowPrivateDomains: true };
/**
 * Services whose names resolve to the address written in them (`1-2-3-4.nip.io` is 1.2.3.4): a
 * name below them is an IP address in disguise, which `bot.egress` does not take. Not a complete
 * list; the operator still reads what a package declares.
 */
const ADDRESS_IN_NAME_DOMAINS: ReadonlySet<string> = new Set(['nip.io', 'sslip.io', 'xip.io', 'traefik.me', 'lvh.me', 'localtest.me', 'vcap.me']);

/**
 * True for a DNS host name a package may declare in `bot.egress`: lower-case ASCII labels
 * (IDNs in their `xn--` form), no port, scheme, path or wildcard, and not an IP address (nor a
 * name of a service that resolves names to the address written in them), so every declared host
 * goes through name resolution and its address check.
 * @example isEgressHostName('api.telegram.org') // true; isEgressHostName('127.0.0.1') // false
 */
export function isEgressHostName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return false;
  const labels = name.split('.');
  if (!labels.every((label) => LABEL.test(label)) || NUMERIC_LABEL.test(labels.at(-1)!)) return false;
  const domain = getDomain(name, SUFFIX_RULES);
  return domain === null || !ADDRESS_IN_NAME_DOMAINS.has(domain);
}

/**
 * True for an entry of `bot.egress`: a host name, or `*.` and a domain, which stands for the
 * names below that domain that belong to its owner (a platform's CDN whose edge hosts vary:
 * `*.fbcdn.net`). The domain must be registrable, not a public suffix from the Public Suffix
 * List, private entries included: `*.com`, `*.co.uk` or `*.github.io` would let the plugin send
 * to names anybody can register, so to anyone.
 * @example isEgressHostPattern('*.fbcdn.net') // true; isEgressHostPattern('*.github.io') // false
 */
export function isEgressHostPattern(entry: string): boolean {
  if (!entry.startsWith(WILDCARD)) return isEgressHostName(entry);
  const domain = entry.slice(WILDCARD.length);
  return isEgressHostName(domain) && getDomain(domain, SUFFIX_RULES) !== null;
}

/**
 * Whether `host` (lower case, no trailing dot) is one `pattern` allows: the same name, or, for
 * `*.domain`, a name with at least one more label ending in `.domain` whose registrable domain
 * is the pattern's own. A public suffix below the domain is a border: `*.amazonaws.com` does not
 * reach `bucket.s3.amazonaws.com`, which anybody can have.
 * @example egressHostMatches('scontent-iad3-1.xx.fbcdn.net', '*.fbcdn.net') // true
 */
export function egressHostMatches(host: string, pattern: string): boolean {
  if (!pattern.startsWith(WILDCARD)) return host === pattern;
  const domain = pattern.slice(WILDCARD.length);
  if (host.length <= domain.length + 1 || !host.endsWith(`.${domain}`)) return false;
  return getDomain(host, SUFFIX_RULES) === getDomain(domain, SUFFIX_RULES);
}
