import assert from 'node:assert/strict';
import { test } from 'node:test';
import { egressRuleFor, type EgressAllowance } from '../../host/egress/egress-allowance.ts';

const allowance: EgressAllowance = { hosts: ['api.telegram.org', '*.fbcdn.net'], origins: ['http://127.0.0.1:8080', 'https://platform.example'] };

const cases: [string, string | undefined][] = [
  ['https://api.telegram.org/bot1/getMe', 'public-address'],
  ['http://api.telegram.org:8443/x', 'public-address'],
  ['https://API.Telegram.org./x', 'public-address'],
  ['https://files.telegram.org/x', undefined],
  ['https://api.telegram.org.evil.example/x', undefined],
  ['http://127.0.0.1:8080/api/messages', 'any-address'],
  ['http://127.0.0.1:8081/api/messages', undefined],
  ['https://127.0.0.1:8080/', undefined],
  ['https://platform.example:443/api', 'any-address'],
  ['http://platform.example/api', undefined],
  ['ftp://api.telegram.org/', undefined],
  ['https://scontent-iad3-1.xx.fbcdn.net/v/photo.jpg', 'public-address'],
  ['https://VIDEO.xx.FBCDN.net./clip.mp4', 'public-address'],
  ['https://fbcdn.net/', undefined],
  ['https://evilfbcdn.net/', undefined],
  ['https://fbcdn.net.evil.example/', undefined],
  ['http://[::1]/fbcdn.net', undefined],
];

for (const [url, rule] of cases) {
  test(`${url} is ${rule ?? 'not allowed'}`, () => assert.equal(egressRuleFor(new URL(url), allowance), rule));
}
