import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * IPv4 ranges that are not the public internet (IANA special-purpose registry, plus multicast
 * and the reserved class E): unspecified, private, CGNAT, loopback, link-local, IETF protocol
 * assignments, documentation, 6to4 relay, AS112, AMT, benchmarking.
 */
const NOT_PUBLIC_IPV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * Inside global unicast (2000::/3), what is still not a public host: IETF protocol assignments
 * (Teredo, ORCHID, benchmarking), documentation, and 6to4 (which tunnels to any IPv4 address,
 * private ones included).
 */
const NOT_PUBLIC_IPV6: [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

const notPublic = new BlockList();
for (const [network, prefix] of NOT_PUBLIC_IPV4) notPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of NOT_PUBLIC_IPV6) notPublic.addSubnet(network, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/**
 * True for an address on the public internet. IPv6 is allowed only in global unicast, so
 * loopback, unspecified, unique-local (fc00::/7), link-local, multicast and the rest are refused
 * by default; an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) address is judged
 * by the IPv4 address inside it. Anything that is not an IP address is not public.
 * @example isPublicAddress('149.154.167.220') // true; isPublicAddress('::ffff:10.0.0.1') // false
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !notPublic.check(address, 'ipv4');
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) only ever names a local link
  if (!isIPv6(bare)) return false;
  const embedded = embeddedIPv4(bare);
  if (embedded !== undefined) return !notPublic.check(embedded, 'ipv4');
  return globalUnicast.check(bare, 'ipv6') && !notPublic.check(bare, 'ipv6');
}

/** The IPv4 address an IPv4-mapped or NAT64 (well-known prefix) IPv6 address carries. */
function embeddedIPv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const zeroes = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const mapped = zeroes(0, 5) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && zeroes(2, 6);
  if (!mapped && !nat64) return undefined;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups, read from the URL parser's canonical form (hex only, `::` once). */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const first = head === '' ? [] : head.split(':');
  const last = tail === undefined || tail === '' ? [] : tail.split(':');
  const middle = Array.from({ length: 8 - first.length - last.length }, () => '0');
  return [...first, ...middle, ...last].map((group) => Number.parseInt(group, 16));
}
