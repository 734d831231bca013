import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPublicAddress } from '../../host/egress/is-public-address.ts';

const PUBLIC = ['149.154.167.220', '8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '2a00:1450:4001:81b::200e', '::ffff:149.154.167.220', '64:ff9b::808:808'];

const NOT_PUBLIC: [string, string][] = [
  ['0.0.0.0', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.255', 'CGNAT'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['203.0.113.5', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fc00::1', 'unique local'],
  ['fd12:3456:789a::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['ff02::1', 'multicast'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
  ['2001:db8::1', 'documentation'],
  ['2001::1', 'Teredo'],
  ['2002:7f00:1::1', '6to4'],
  ['100::1', 'discard-only'],
  ['not an address', 'not an IP at all'],
  ['localhost', 'a name, not an address'],
];

for (const address of PUBLIC) {
  test(`${address} is public`, () => assert.equal(isPublicAddress(address), true));
}

for (const [address, kind] of NOT_PUBLIC) {
  test(`${address} (${kind}) is not public`, () => assert.equal(isPublicAddress(address), false));
}
