const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A last label the URL parser would read as a number, making the whole name an IPv4 address. */
const NUMERIC_LABEL = /^(\d+|0x[0-9a-f]*)$/;
const MAX_NAME_LENGTH = 253;

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
