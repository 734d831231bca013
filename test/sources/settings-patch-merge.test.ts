import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };
const CUSTOM = { api_url: 'https://custom.example/api', api_key: 'key-1', webhook_secret: 'secret-1', tenant_id: 'acme' };

let t: TestApp;
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
});
after(() => t.close());

const storedSettings = async (id: string) => (await t.database.db('sources').where({ id }).first()).settings as Record<string, unknown>;

let counter = 0;
async function createCustom(): Promise<string> {
  const created = await t.request('POST', '/api/sources', { as: 'admin', body: { name: `Merge ${(counter += 1)}`, channel: 'sample', settings: CUSTOM } });
  assert.equal(created.status, 201, created.text);
  return created.body.id;
}
const patchSettings = (id: string, settings: Record<string, unknown>) =>
  t.request('PATCH', `/api/sources/${id}`, { as: 'editor', body: { settings } });

describe('PATCH /api/sources/:id merges settings key by key', () => {
  test('patching one key keeps every other setting, secrets and non-secrets alike', async () => {
    const id = await createCustom();
    const patched = await patchSettings(id, { api_key: 'key-2' });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(await storedSettings(id), { ...CUSTOM, api_key: 'key-2', verify_token: '' });
  });

  test('a key set to null returns to the channel default; an x-egress one is left unset', async () => {
    const id = await createCustom();
    const patched = await patchSettings(id, { api_url: null, tenant_id: null });
    assert.equal(patched.status, 200, patched.text);
    const stored = await storedSettings(id);
    assert.equal('api_url' in stored, false, 'the schema default of an endpoint is not stored: it would grant egress');
    assert.equal(stored.tenant_id, '');
    assert.equal(stored.api_key, 'key-1', 'untouched');
  });

  test('a secret set to null is cleared, while a masked one keeps the stored value', async () => {
    const id = await createCustom();
    const patched = await patchSettings(id, { api_key: '********', webhook_secret: null });
    assert.equal(patched.status, 200, patched.text);
    const stored = await storedSettings(id);
    assert.equal(stored.api_key, 'key-1');
    assert.equal(stored.webhook_secret, '');
  });

  test('the merged settings are validated: 422 at the field, nothing stored', async () => {
    const id = await createCustom();
    const patched = await patchSettings(id, { api_url: 'not a url' });
    assert.equal(patched.status, 422, patched.text);
    assert.equal(patched.body.error.code, 'BOT_ERR_SOURCE_SETTINGS_INVALID');
    assert.ok(patched.body.error.details.problems.some((problem: { path: string }) => problem.path === '/api_url'), patched.text);
    assert.equal((await storedSettings(id)).api_url, CUSTOM.api_url);
  });
});

describe('a PATCH of settings and the egress the operator grants', () => {
  const grantsOf = async (id: string) => (await t.database.db('sources').where({ id }).first()).egress_grants as string[] | null;

  test('a PATCH that gives api_url grants its origin; one that leaves it out keeps the grant; null takes it away', async () => {
    const created = await t.request('POST', '/api/sources', { as: 'admin', body: { name: `Merge ${(counter += 1)}`, channel: 'sample', settings: { api_key: 'key-1' } } });
    assert.deepEqual([created.body.egressOrigins, await grantsOf(created.body.id)], [[], []]);
    const { id } = created.body;
    // The stored key goes with the new endpoint, so it is given again (see the sources routes' test).
    const given = await patchSettings(id, { api_url: 'http://10.0.0.5:8080/api', api_key: 'key-1' });
    assert.deepEqual([given.body.egressOrigins, await grantsOf(id)], [['http://10.0.0.5:8080'], ['api_url']]);
    const untouched = await patchSettings(id, { api_key: '********', tenant_id: 'other' });
    assert.deepEqual([untouched.body.egressOrigins, await grantsOf(id)], [['http://10.0.0.5:8080'], ['api_url']]);
    const cleared = await patchSettings(id, { api_url: null });
    assert.deepEqual([cleared.body.egressOrigins, await grantsOf(id)], [[], []]);
  });

  test('a PATCH without settings leaves the grants as they are, NULL (saved before grants were recorded) included', async () => {
    const id = await createCustom();
    await t.database.db('sources').where({ id }).update({ egress_grants: null });
    const renamed = await t.request('PATCH', `/api/sources/${id}`, { as: 'editor', body: { active: false } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(await grantsOf(id), null);
    assert.deepEqual(renamed.body.egressOrigins, ['https://custom.example']);
  });
});
