import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { describe, test } from 'node:test';
import type { EgressRequest } from '@bot-ai/api';
import { configSchema } from '../../host/config/config.schema.ts';
import { egressSelfFrom, isSelfAddress } from '../../host/egress/egress-self.ts';
import { echo, rejectsWithCode, resolverFor, startClient, startListener, text } from './egress-fixtures.ts';

const get = (url: string): EgressRequest => ({ url, method: 'GET', headers: [] });
/** The host's configuration by default: BOT_EGRESS_ALLOW_SELF off. */
const DEFAULTS = configSchema.parse({});

describe("the host's own HTTP port", () => {
  // Each test's listener stands in for the host: its port is the host's PORT.
  test('is refused on loopback even when an x-egress origin names it, and never contacted', async (t) => {
    const host = await startListener(t, echo);
    const client = startClient(t, { self: egressSelfFrom(DEFAULTS, () => host.port) });
    const error = await rejectsWithCode(client.perform(get(`${host.origin}/metrics`), { hosts: [], origins: [host.origin] }), 'BOT_ERR_EGRESS_HOST_SELF');
    assert.doesNotMatch(error.message, /metrics/, 'the message names the origin, not the path');
    assert.equal(host.received.length, 0);
  });

  test('is refused through a name that resolves to loopback, and through a redirect', async (t) => {
    const host = await startListener(t, echo);
    const platform = await startListener(t, (_request, res) => res.writeHead(302, { location: `${host.origin}/api/sources` }).end());
    const client = startClient(t, { self: egressSelfFrom(DEFAULTS, () => host.port), resolve: resolverFor({ 'platform.test': ['127.0.0.1'] }) });
    const named = `http://platform.test:${host.port}`;
    await rejectsWithCode(client.perform(get(`${named}/api/sources`), { hosts: [], origins: [named] }), 'BOT_ERR_EGRESS_HOST_SELF');
    await rejectsWithCode(client.perform(get(`${platform.origin}/hook`), { hosts: [], origins: [platform.origin, host.origin] }), 'BOT_ERR_EGRESS_HOST_SELF');
    assert.equal(host.received.length, 0);
    assert.equal(platform.received.length, 1, 'the platform itself was reached');
  });

  test('leaves every other port of loopback to the x-egress rules', async (t) => {
    const host = await startListener(t, echo);
    const platform = await startListener(t, echo);
    const client = startClient(t, { self: egressSelfFrom(DEFAULTS, () => host.port) });
    const answer = await client.perform(get(`${platform.origin}/api/messages`), { hosts: [], origins: [platform.origin] });
    assert.equal(JSON.parse(text(answer.body)).url, '/api/messages');
  });

  test('is reached when BOT_EGRESS_ALLOW_SELF=true', async (t) => {
    const host = await startListener(t, echo);
    const allowing = configSchema.parse({ BOT_EGRESS_ALLOW_SELF: 'true' });
    const client = startClient(t, { self: egressSelfFrom(allowing, () => host.port) });
    const answer = await client.perform(get(`${host.origin}/metrics`), { hosts: [], origins: [host.origin] });
    assert.equal(JSON.parse(text(answer.body)).url, '/metrics');
  });
});

describe('an address of the host itself', () => {
  const ownAddress = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && !entry.internal)?.address;
  const cases: [string, string, boolean][] = [
    ['IPv4 loopback', '127.0.0.53', true],
    ['IPv6 loopback', '::1', true],
    ['the unspecified address', '0.0.0.0', true],
    ['IPv6 unspecified', '::', true],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1', true],
    ['the listen address', '10.1.2.3', true],
    ['a public address', '93.184.215.14', false],
    ['not an address', 'localhost', false],
  ];
  for (const [what, address, self] of cases) {
    test(`${what} (${address}) is ${self ? '' : 'not '}the host's`, () => {
      assert.equal(isSelfAddress(address, '10.1.2.3'), self);
    });
  }
  test("an address of one of the machine's interfaces is the host's", { skip: ownAddress === undefined && 'no interface but loopback' }, () => {
    assert.equal(isSelfAddress(ownAddress!, '127.0.0.1'), true);
  });
});
