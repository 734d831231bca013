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
