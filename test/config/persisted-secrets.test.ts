import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../host/config/load-config.ts';
import { resolveSecrets } from '../../host/config/persisted-secrets.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'bot-secrets-'));
after(() => rm(dir, { recursive: true, force: true }));

test('generates strong secrets once on the embedded default and reuses them', async () => {
  const config = loadConfig({ BOT_DATA_DIR: dir }, '/');
  const first = await resolveSecrets(config);
  assert.ok(first.authSecret.length >= 32);
  assert.notEqual(first.authSecret, first.downloadSecret);
  assert.deepEqual(await resolveSecrets(config), first);
  assert.equal((await stat(path.join(dir, 'secrets.json'))).mode & 0o777, 0o600);
});

test('configured secrets win over generated ones', async () => {
  const configured = 'c'.repeat(40);
  const config = loadConfig({ BOT_DATA_DIR: dir, BOT_AUTH_SECRET: configured }, '/');
  assert.equal((await resolveSecrets(config)).authSecret, configured);
});

test('a damaged secrets file stops start-up with the file named', async () => {
  const damaged = await mkdtemp(path.join(tmpdir(), 'bot-secrets-damaged-'));
  try {
    await writeFile(path.join(damaged, 'secrets.json'), '{"authSecret": "short"');
    await assert.rejects(resolveSecrets(loadConfig({ BOT_DATA_DIR: damaged }, '/')), /secrets\.json is damaged/);
  } finally {
    await rm(damaged, { recursive: true, force: true });
  }
});

test('a secrets file from before live chat gains a web session secret and keeps the others', async () => {
  const older = await mkdtemp(path.join(tmpdir(), 'bot-secrets-older-'));
  try {
    const kept = { authSecret: 'a'.repeat(40), downloadSecret: 'd'.repeat(40) };
    await writeFile(path.join(older, 'secrets.json'), JSON.stringify(kept));
    const config = loadConfig({ BOT_DATA_DIR: older }, '/');
    const first = await resolveSecrets(config);
    assert.equal(first.authSecret, kept.authSecret);
    assert.equal(first.downloadSecret, kept.downloadSecret);
    assert.ok(first.webSessionSecret.length >= 32);
    assert.deepEqual(await resolveSecrets(config), first, 'the added secret is kept for the next start');
    assert.equal((await stat(path.join(older, 'secrets.json'))).mode & 0o777, 0o600);
  } finally {
    await rm(older, { recursive: true, force: true });
  }
});

test('with DATABASE_URL the web session secret is the configured one, else derived from the admin secret', async () => {
  const env = { DATABASE_URL: 'postgres://db/bot', BOT_AUTH_SECRET: 'a'.repeat(40), BOT_DOWNLOAD_SECRET: 'd'.repeat(40) };
  const derived = await resolveSecrets(loadConfig(env, '/'));
  assert.ok(derived.webSessionSecret.length >= 32);
  assert.notEqual(derived.webSessionSecret, env.BOT_AUTH_SECRET);
  assert.equal((await resolveSecrets(loadConfig({ ...env, BOT_AUTH_SECRET: 'b'.repeat(40) }, '/'))).webSessionSecret === derived.webSessionSecret, false);
  const configured = 'w'.repeat(40);
  assert.equal((await resolveSecrets(loadConfig({ ...env, BOT_WEB_SESSION_SECRET: configured }, '/'))).webSessionSecret, configured);
});
