import assert from 'node:assert/strict';
import { test } from 'node:test';
import { egressHostMatches, isEgressHostName, isEgressHostPattern } from '../../host/egress/egress-host-name.ts';

const NAMES = ['api.telegram.org', 'graph.facebook.com', 'xn--bcher-kva.example', 'a-b.c1.example', 'localhost'];
const NOT_NAMES = [
  '',
  '127.0.0.1',
  '1.2.3',
  'api.example.123',
  'example.0x7f',
  '[::1]',
  'https://api.example.com',
  'api.example.com:443',
  'api.example.com/path',
  '*.example.com',
  'API.example.com',
  '-api.example.com',
  'api-.example.com',
  'api..example.com',
  'bücher.example',
  `${'a'.repeat(64)}.example`,
];

for (const name of NAMES) test(`${name} is a host name a package may declare`, () => assert.equal(isEgressHostName(name), true));
for (const name of NOT_NAMES) test(`${JSON.stringify(name)} is not`, () => assert.equal(isEgressHostName(name), false));

const PATTERNS = ['*.fbcdn.net', '*.xx.fbcdn.net', '*.example.com', '*.foo.github.io', '*.bücher.example'.replace('bücher', 'xn--bcher-kva')];
// Public suffixes, private ones included (anybody can have a name below them), and broken shapes.
const NOT_PATTERNS = [
  '*.com', '*.co.uk', '*.github.io', '*.cloudfront.net', '*.s3.amazonaws.com', '*.localhost', '*', '*.', '**.example.com', '*example.com',
  'api.*.example.com', '*.*.example.com', '*.127.0.0.1', '*.Example.com',
  // Names there resolve to the address written in them: IP addresses in disguise.
  '*.nip.io', '*.sslip.io', '1-2-3-4.nip.io', '10.0.0.1.sslip.io',
];

for (const name of [...NAMES, ...PATTERNS]) test(`${name} may be declared in bot.egress`, () => assert.equal(isEgressHostPattern(name), true));
for (const name of [...NOT_NAMES.filter((name) => name !== '*.example.com'), ...NOT_PATTERNS]) test(`${JSON.stringify(name)} may not be declared in bot.egress`, () => assert.equal(isEgressHostPattern(name), false));

test('a *.domain pattern allows every name below the domain, not the domain itself nor a name that only ends like it', () => {
  for (const host of ['scontent.xx.fbcdn.net', 'scontent-iad3-1.xx.fbcdn.net', 'video.xx.fbcdn.net', 'a.fbcdn.net']) assert.equal(egressHostMatches(host, '*.fbcdn.net'), true, host);
  for (const host of ['fbcdn.net', 'evilfbcdn.net', 'fbcdn.net.evil.example', 'x.fbcdn.network']) assert.equal(egressHostMatches(host, '*.fbcdn.net'), false, host);
  assert.equal(egressHostMatches('api.telegram.org', 'api.telegram.org'), true);
  assert.equal(egressHostMatches('x.foo.github.io', '*.foo.github.io'), true);
  assert.equal(egressHostMatches('x.api.telegram.org', 'api.telegram.org'), false);
});

test('a *.domain pattern stops at a public suffix below the domain: names there are anybody\'s', () => {
  const beyond: [string, string][] = [
    ['attacker-bucket.s3.amazonaws.com', '*.amazonaws.com'],
    ['abc.execute-api.us-east-1.amazonaws.com', '*.amazonaws.com'],
    ['x.blob.core.windows.net', '*.windows.net'],
    ['x.blob.core.windows.net', '*.core.windows.net'],
  ];
  for (const [host, pattern] of beyond) assert.equal(egressHostMatches(host, pattern), false, `${host} by ${pattern}`);
  assert.equal(egressHostMatches('sts.amazonaws.com', '*.amazonaws.com'), true);
});
