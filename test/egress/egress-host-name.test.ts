import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEgressHostName } from '../../host/egress/egress-host-name.ts';

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
