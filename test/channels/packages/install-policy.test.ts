import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { test, type TestContext } from 'node:test';
import { configSchema } from '../../../host/config/config.schema.ts';
import { checkInstallRules, installRulesFrom, type InstallRules } from '../../../host/channels/packages/install-policy.ts';
import { packedChannel } from '../../support/channel-package-tarballs.ts';
import { startPackageHost, type PackageHost } from '../../support/package-host.ts';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const candidate = (name: string, version = '1.2.0', publishedAt: string | undefined = hoursAgo(1_000), fromRegistry = true) => ({ name, version, publishedAt, fromRegistry, trust: 'unsigned' as const });
const rules = (partial: Partial<InstallRules>): InstallRules => ({ allow: [], deny: [], minReleaseAgeHours: 0, requireSigned: false, ...partial });
const refused = (run: () => void) => assert.throws(run, { code: 'BOT_ERR_CHANNEL_PACKAGE_POLICY' });

/** A host installing from a registry of its own under `installRules`, closed after the test. */
async function packageHost(t: TestContext, installRules: InstallRules): Promise<PackageHost> {
  const host = await startPackageHost('registry', { rules: installRules });
  t.after(() => host.close());
  return host;
}

test('a deny entry refuses its name, or only the versions in its range, whatever the allow list says', () => {
  refused(() => checkInstallRules(candidate('bot-channel-x'), rules({ deny: ['bot-channel-x'], allow: ['bot-channel-x'] }), NOW));
  refused(() => checkInstallRules(candidate('bot-channel-x', '1.2.0'), rules({ deny: ['bot-channel-x@<2'] }), NOW));
  checkInstallRules(candidate('bot-channel-x', '2.0.0'), rules({ deny: ['bot-channel-x@<2'] }), NOW);
  checkInstallRules(candidate('bot-channel-xy'), rules({ deny: ['bot-channel-x'] }), NOW);
});

test('an allow list lets in only what it names, in the ranges it gives', () => {
  checkInstallRules(candidate('bot-channel-x', '1.4.0'), rules({ allow: ['bot-channel-y', 'bot-channel-x@^1.2'] }), NOW);
  refused(() => checkInstallRules(candidate('bot-channel-x', '2.0.0'), rules({ allow: ['bot-channel-x@^1.2'] }), NOW));
  refused(() => checkInstallRules(candidate('bot-channel-z'), rules({ allow: ['bot-channel-x'] }), NOW));
});

test('a minimum release age refuses younger registry versions and those whose age the registry does not say; uploads have none to check', () => {
  const aged = rules({ minReleaseAgeHours: 48 });
  checkInstallRules(candidate('bot-channel-x', '1.0.0', hoursAgo(49)), aged, NOW);
  refused(() => checkInstallRules(candidate('bot-channel-x', '1.0.0', hoursAgo(47)), aged, NOW));
  // (A default parameter would stand in for an undefined publish time: these are spelt out.)
  refused(() => checkInstallRules({ name: 'bot-channel-x', version: '1.0.0', publishedAt: undefined, fromRegistry: true, trust: 'verified' }, aged, NOW));
  checkInstallRules({ name: 'bot-channel-x', version: '1.0.0', publishedAt: undefined, fromRegistry: false, trust: 'pinned' }, aged, NOW);
});

test('requireSigned lets in only a registry version whose signature verified: not an unsigned one, nor an upload', () => {
  const signedOnly = rules({ requireSigned: true });
  checkInstallRules({ ...candidate('bot-channel-x'), trust: 'verified' }, signedOnly, NOW);
  refused(() => checkInstallRules(candidate('bot-channel-x'), signedOnly, NOW));
  for (const trust of ['pinned', 'unverified'] as const) refused(() => checkInstallRules({ ...candidate('bot-channel-x', '1.0.0', undefined, false), trust }, signedOnly, NOW));
  checkInstallRules(candidate('bot-channel-x'), rules({}), NOW);
});

test('the rules are read from BOT_CHANNEL_ALLOW, BOT_CHANNEL_DENY, BOT_CHANNEL_MIN_RELEASE_AGE_HOURS and BOT_CHANNEL_REQUIRE_SIGNED', () => {
  const read = installRulesFrom({ BOT_CHANNEL_ALLOW: 'bot-channel-a, bot-channel-b@^2', BOT_CHANNEL_DENY: undefined, BOT_CHANNEL_MIN_RELEASE_AGE_HOURS: 24, BOT_CHANNEL_REQUIRE_SIGNED: true });
  assert.deepEqual(read, { allow: ['bot-channel-a', 'bot-channel-b@^2'], deny: [], minReleaseAgeHours: 24, requireSigned: true });
  assert.equal(configSchema.parse({}).BOT_CHANNEL_REQUIRE_SIGNED, false);
  assert.equal(configSchema.parse({ BOT_CHANNEL_REQUIRE_SIGNED: 'true' }).BOT_CHANNEL_REQUIRE_SIGNED, true);
});

test('the host applies the rules before it unpacks anything, and audits the refusal', async (t) => {
  const { registry, app, storeDir } = await packageHost(t, rules({ deny: ['bot-channel-banned'] }));
  const { manifest, tarball } = await packedChannel('banned', '1.0.0');
  registry.publish(manifest, tarball);
  const response = await app.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: 'bot-channel-banned@1.0.0' } });
  assert.equal(response.status, 403, response.text);
  assert.equal(response.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_POLICY');
  assert.match(response.body.error.message, /BOT_CHANNEL_DENY/);
  const audit = await app.request('GET', '/api/channel/packages/audit', { as: 'viewer' });
  assert.equal(audit.body.items[0].outcome, 'BOT_ERR_CHANNEL_PACKAGE_POLICY');
  assert.deepEqual(await readdir(storeDir), [], 'nothing was unpacked');
});

test('the rules apply to a preview, and to a rollback as they stand now: a version they refuse is not put back, and the refusal is audited', async (t) => {
  // The operator's rules, made stricter below as a restart with a new BOT_CHANNEL_DENY would.
  const standing = rules({});
  const { registry, app } = await packageHost(t, standing);
  for (const version of ['1.0.0', '2.0.0']) {
    const { manifest, tarball } = await packedChannel('turned', version);
    registry.publish(manifest, tarball);
    const installed = await app.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: `bot-channel-turned@${version}` } });
    assert.equal(installed.status, 200, installed.text);
  }
  standing.deny.push('bot-channel-turned@<2');

  const preview = await app.request('POST', '/api/channel/packages/preview', { as: 'admin', body: { spec: 'bot-channel-turned@1.0.0' } });
  assert.equal(preview.status, 403, preview.text);
  const rollback = await app.request('POST', '/api/channel/packages/bot-channel-turned/rollback', { as: 'admin' });
  assert.equal(rollback.status, 403, rollback.text);
  assert.equal(rollback.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_POLICY');
  assert.match(rollback.body.error.message, /bot-channel-turned@1\.0\.0 is denied by BOT_CHANNEL_DENY/);
  const listed = await app.request('GET', '/api/channel/packages', { as: 'viewer' });
  assert.equal(listed.body.items.find((item: { name: string }) => item.name === 'bot-channel-turned')?.version, '2.0.0');
  const audit = await app.request('GET', '/api/channel/packages/audit', { as: 'viewer' });
  assert.deepEqual([audit.body.items[0].action, audit.body.items[0].outcome], ['rollback', 'BOT_ERR_CHANNEL_PACKAGE_POLICY']);
});
