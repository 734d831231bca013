import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createGreetingWorkflow } from '../support/greeting-setup.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

let t: TestApp;
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
});
after(() => t.close());

const storedSettings = async (id: string) => (await t.database.db('sources').where({ id }).first()).settings as Record<string, unknown>;

let counter = 0;
const createSample = (settings: Record<string, unknown> = {}) =>
  t.request('POST', '/api/sources', { as: 'admin', body: { name: `Sample ${(counter += 1)}`, channel: 'sample', settings } });

describe('sources', () => {
  test('creating a source validates settings, fills defaults (not of x-egress settings) and masks secrets in the response', async () => {
    const created = await createSample({ api_key: 'key-123', webhook_secret: 'shh', verify_token: '' });
    assert.equal(created.status, 201);
    assert.equal(created.body.settings.api_key, '********');
    assert.equal(created.body.settings.webhook_secret, '********');
    assert.equal(created.body.settings.verify_token, '', 'an unset secret shows as empty');
    assert.equal(created.body.settings.tenant_id, '', 'a default is filled in');
    assert.equal('api_url' in created.body.settings, false, 'an x-egress default is not: only an operator grants egress');
    assert.doesNotMatch(created.text, /key-123|shh/);
    assert.equal((await storedSettings(created.body.id)).api_key, 'key-123');
  });

  test('a source reads with the egress its settings grant: none when its x-egress setting is left to the default', async () => {
    const defaulted = await createSample();
    assert.deepEqual(defaulted.body.egressOrigins, []);
    const saved = await createSample({ api_url: 'http://10.0.0.5:8080/api' });
    assert.deepEqual(saved.body.egressOrigins, ['http://10.0.0.5:8080']);
    const read = await t.request('GET', `/api/sources/${saved.body.id}`, { as: 'viewer' });
    assert.deepEqual(read.body.egressOrigins, ['http://10.0.0.5:8080']);
  });

  test('egressOrigins lists only the settings the operator granted, and every x-egress one of a source saved before grants were recorded', async () => {
    const saved = await createSample({ api_url: 'http://10.0.0.5:8080/api' });
    assert.deepEqual((await t.database.db('sources').where({ id: saved.body.id }).first()).egress_grants, ['api_url']);
    const readWith = async (grants: string[] | null) => {
      await t.database.db('sources').where({ id: saved.body.id }).update({ egress_grants: grants === null ? null : JSON.stringify(grants) });
      return (await t.request('GET', `/api/sources/${saved.body.id}`, { as: 'viewer' })).body.egressOrigins;
    };
    assert.deepEqual(await readWith([]), [], 'a value stored without a grant (saved while the setting was not x-egress) opens nothing');
    assert.deepEqual(await readWith(null), ['http://10.0.0.5:8080']);
    assert.deepEqual(await readWith(['api_url']), ['http://10.0.0.5:8080']);
  });

  test('each source gets an unguessable, URL-safe ref and the webhook URL built from it', async () => {
    const [a, b] = await Promise.all([createSample(), createSample()]);
    for (const source of [a.body, b.body]) {
      assert.match(source.ref, /^[A-Za-z0-9_-]{24}$/);
      assert.ok(source.webhookUrl.endsWith(`/api/webhook/${source.ref}`));
    }
    assert.notEqual(a.body.ref, b.body.ref);
  });

  test('a web source (a WebSocket channel) has no webhook URL but its chat page link; a webhook source has no chat link', async () => {
    const web = await t.request('POST', '/api/sources', { as: 'admin', body: { name: `Web ${(counter += 1)}`, channel: 'web' } });
    assert.equal(web.status, 201, web.text);
    const read = await t.request('GET', `/api/sources/${web.body.id}`, { as: 'viewer', headers: { host: 'bot.internal:3000' } });
    assert.equal(read.body.webhookUrl, null);
    assert.equal(read.body.chatUrl, `http://bot.internal:3000/chat/${web.body.ref}`);
    assert.equal((await t.request('GET', `/chat/${web.body.ref}`)).status, 200, 'the link opens the chat page');
    const sample = await createSample();
    assert.equal(sample.body.chatUrl, null);
    assert.match(sample.body.webhookUrl, /\/api\/webhook\//);
  });

  test('the webhook URL ignores spoofed X-Forwarded headers unless the proxy is trusted', async () => {
    const created = await createSample();
    const read = await t.request('GET', `/api/sources/${created.body.id}`, {
      as: 'viewer',
      headers: { host: 'bot.internal:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    assert.equal(read.body.webhookUrl, `http://bot.internal:3000/api/webhook/${created.body.ref}`);
  });

  test('settings that break the channel schema answer 422 with the problems', async () => {
    const response = await createSample({ api_url: 'not a url', api_key: 42 });
    assert.equal(response.status, 422);
    assert.equal(response.body.error.code, 'BOT_ERR_SOURCE_SETTINGS_INVALID');
    assert.ok(response.body.error.details.problems.length >= 2);
  });

  test('a secret a channel could not put in an HTTP header answers 422 at that field, saying why', async () => {
    const created = await createSample({ api_key: '…', tenant_id: 'Zürich' });
    assert.equal(created.status, 422, created.text);
    assert.equal(created.body.error.code, 'BOT_ERR_SOURCE_SETTINGS_INVALID');
    assert.deepEqual(created.body.error.details.problems, [
      { path: '/api_key', message: 'must be visible ASCII: it is sent in an HTTP header (U+2026 at character 1)' },
    ]);

    const source = await createSample({ api_key: 'ascii-key' });
    const patched = await t.request('PATCH', `/api/sources/${source.body.id}`, { as: 'admin', body: { settings: { webhook_secret: 'two words' } } });
    assert.equal(patched.status, 422, patched.text);
    assert.equal(patched.body.error.details.problems[0].path, '/webhook_secret');
    assert.equal((await storedSettings(source.body.id)).webhook_secret, '', 'nothing stored');
  });

  test('an unknown channel answers 422', async () => {
    const response = await t.request('POST', '/api/sources', { as: 'admin', body: { name: 'Nowhere', channel: 'carrier_pigeon' } });
    assert.equal(response.status, 422);
    assert.equal(response.body.error.code, 'BOT_ERR_SOURCE_CHANNEL_UNKNOWN');
  });

  test('a default workflow must name a workflow that exists: 422 at that field, on create and on change', async () => {
    const missing = '00000000-0000-4000-8000-00000000abcd';
    const created = await t.request('POST', '/api/sources', { as: 'admin', body: { name: 'Orphan', channel: 'sample', defaultWorkflowId: missing } });
    assert.equal(created.status, 422, created.text);
    assert.equal(created.body.error.code, 'BOT_ERR_SOURCE_WORKFLOW_UNKNOWN');
    assert.equal(created.body.error.details.field, 'defaultWorkflowId');
    const notAnId = await t.request('POST', '/api/sources', { as: 'admin', body: { name: 'Orphan', channel: 'sample', defaultWorkflowId: 'greeting' } });
    assert.equal(notAnId.status, 422, notAnId.text);

    const source = await createSample();
    const patched = await t.request('PATCH', `/api/sources/${source.body.id}`, { as: 'admin', body: { defaultWorkflowId: missing } });
    assert.equal(patched.status, 422, patched.text);
    assert.equal((await t.database.db('sources').where({ id: source.body.id }).first()).default_workflow_id, null, 'nothing stored');

    const workflow = await createGreetingWorkflow(t);
    const linked = await t.request('PATCH', `/api/sources/${source.body.id}`, { as: 'admin', body: { defaultWorkflowId: workflow.id } });
    assert.equal(linked.status, 200, linked.text);
    assert.equal(linked.body.defaultWorkflowId, workflow.id);
  });

  test('a PATCH sending the mask or leaving a secret out keeps the stored secret; a new value replaces it', async () => {
    const created = await createSample({ api_key: 'original', webhook_secret: 'secret-1' });
    const masked = await t.request('PATCH', `/api/sources/${created.body.id}`, {
      as: 'editor',
      body: { settings: { ...created.body.settings, tenant_id: 'acme' } },
    });
    assert.equal(masked.status, 200);
    const afterMasked = await storedSettings(created.body.id);
    assert.equal(afterMasked.api_key, 'original');
    assert.equal(afterMasked.webhook_secret, 'secret-1');
    assert.equal(afterMasked.tenant_id, 'acme');

    await t.request('PATCH', `/api/sources/${created.body.id}`, { as: 'editor', body: { settings: { tenant_id: 'acme', api_key: 'rotated' } } });
    const afterRotation = await storedSettings(created.body.id);
    assert.equal(afterRotation.api_key, 'rotated');
    assert.equal(afterRotation.webhook_secret, 'secret-1', 'left out: kept');
  });

  test('moving the API URL to another address needs the stored secrets given again: an editor cannot send them to their own server', async () => {
    const created = await createSample({ api_url: 'https://platform.example/api', api_key: 'bot-token', webhook_secret: 'secret-1' });
    const id = created.body.id;
    const stolen = await t.request('PATCH', `/api/sources/${id}`, { as: 'editor', body: { settings: { ...created.body.settings, api_url: 'https://attacker.example/api' } } });
    assert.equal(stolen.status, 422, stolen.text);
    assert.equal(stolen.body.error.code, 'BOT_ERR_SOURCE_SECRETS_REQUIRED');
    assert.deepEqual(stolen.body.error.details, { fields: ['settings.api_key', 'settings.webhook_secret'] });
    assert.equal((await storedSettings(id)).api_url, 'https://platform.example/api', 'nothing was saved');

    const samePlace = await t.request('PATCH', `/api/sources/${id}`, { as: 'editor', body: { settings: { api_url: 'https://platform.example/v2' } } });
    assert.equal(samePlace.status, 200, 'another path on the same origin sends the secrets nowhere new');
    const moved = await t.request('PATCH', `/api/sources/${id}`, { as: 'editor', body: { settings: { api_url: 'https://proxy.example/api', api_key: 'bot-token', webhook_secret: null } } });
    assert.equal(moved.status, 200, moved.text);
    const saved = await storedSettings(id);
    assert.deepEqual([saved.api_url, saved.api_key, saved.webhook_secret], ['https://proxy.example/api', 'bot-token', ''], 'null cleared the other secret');
  });

  test('lists, reads, deactivates and deletes a source', async () => {
    const created = await createSample();
    const listed = await t.request('GET', `/api/sources?q=${encodeURIComponent(created.body.name)}`, { as: 'viewer' });
    assert.deepEqual(listed.body.items.map((item: { id: string }) => item.id), [created.body.id]);
    const deactivated = await t.request('PATCH', `/api/sources/${created.body.id}`, { as: 'editor', body: { active: false } });
    assert.equal(deactivated.body.active, false);
    assert.equal((await t.request('GET', `/api/sources/${created.body.id}`, { as: 'viewer' })).body.active, false);
    assert.equal((await t.request('DELETE', `/api/sources/${created.body.id}`, { as: 'admin' })).status, 204);
    assert.equal((await t.request('GET', `/api/sources/${created.body.id}`, { as: 'viewer' })).status, 404);
  });

  test('a duplicate name answers 409', async () => {
    const created = await createSample();
    const again = await t.request('POST', '/api/sources', { as: 'admin', body: { name: created.body.name.toUpperCase(), channel: 'sample' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'BOT_ERR_SOURCE_NAME_TAKEN');
  });

  test('roles: viewer reads only, editor cannot delete', async () => {
    const created = await createSample();
    assert.equal((await t.request('POST', '/api/sources', { as: 'viewer', body: { name: 'x', channel: 'sample' } })).status, 403);
    assert.equal((await t.request('DELETE', `/api/sources/${created.body.id}`, { as: 'editor' })).status, 403);
    assert.equal((await t.request('GET', '/api/sources')).status, 401);
  });
});
