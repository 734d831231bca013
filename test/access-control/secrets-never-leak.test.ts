import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { FakePlatform } from '../dispatch/fake-platform.ts';
import { claimAndProcess } from '../support/claim-events.ts';
import { createTestApp, TEST_AUTH_SECRET, TEST_DOWNLOAD_SECRET, TEST_PUBLIC_URL, type RequestOptions, type TestApp, type TestResponse } from '../support/test-app.ts';
import { workflowYaml } from '../workflows/routes/workflow-requests.ts';
import { captureLogs } from './captured-logs.ts';
import { operationsOf } from './openapi-operations.ts';
import { SecretNeedles } from './secret-needles.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

/** The sample channel's secret settings (password fields), each distinctive enough to search for. */
const SECRETS = {
  api_key: 'sk-live-apikey-Q7v3Jx9TnP2w',
  webhook_secret: 'whsec-hmac-Z4m8Rk1YbL6c',
  verify_token: 'vt-handshake-H5d2Wq8NsE3u',
};

const logs = captureLogs();
const needles = new SecretNeedles()
  .add('the api_key setting', SECRETS.api_key)
  .add('the webhook_secret setting', SECRETS.webhook_secret)
  .add('the verify_token setting', SECRETS.verify_token)
  .add('the auth secret', TEST_AUTH_SECRET)
  .add('the download secret', TEST_DOWNLOAD_SECRET);

let t: TestApp;
let platform: FakePlatform;
let adminAuthorization: string;
let source: { id: string; ref: string; name: string };
let workflowId: string;

/** An admin request whose answer (status line aside: headers and body) is checked for every needle. */
async function request(method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, options: RequestOptions = {}): Promise<TestResponse> {
  const response = await t.request(method, url, { authorization: adminAuthorization, ...options });
  needles.assertAbsent(`${JSON.stringify(response.headers)}\n${response.text}`, `the answer to ${method} ${url} (${response.status})`);
  return response;
}

const signed = (raw: string) => createHmac('sha256', SECRETS.webhook_secret).update(raw).digest('hex');

before(async () => {
  platform = await FakePlatform.start();
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX }, logger: logs.logger });
  await t.services.channels.load();
  const token = t.tokenFor('admin');
  adminAuthorization = `Bearer ${token}`;
  needles.addToken('the admin token', token);
  const workflow = await request('POST', '/api/workflows', { body: { name: 'Greeting', yaml: workflowYaml() } });
  assert.equal(workflow.status, 201, workflow.text);
  workflowId = workflow.body.id;
  const created = await request('POST', '/api/sources', {
    body: { name: 'Sample', channel: 'sample', settings: { ...SECRETS, api_url: platform.url }, defaultWorkflowId: workflowId },
  });
  assert.equal(created.status, 201, created.text);
  source = created.body;
  const definition = await request('POST', '/api/memory-definitions', {
    body: { name: 'Profile', scope: 'global', schema: { type: 'object', properties: { name: { type: 'string', description: 'A name' } } } },
  });
  assert.equal(definition.status, 201, definition.text);
  // A memory record, so `GET /api/memory-records/{id}` has one to read below.
  await t.services.memoryRecords.write({ ownerId: 'secrets-check' }, { [definition.body.slug]: { name: 'Ada' } });
});
after(async () => {
  await t.close();
  await platform.close();
});

describe('no answer carries a secret setting, a token or a host secret', () => {
  test('a created source shows its secrets masked', async () => {
    const read = await request('GET', `/api/sources/${source.id}`);
    assert.equal(read.body.settings.api_key, '********');
    assert.equal(read.body.settings.webhook_secret, '********');
    assert.equal(read.body.settings.verify_token, '********');
  });

  test('422 and 409 answers about sources do not echo the secrets sent with them', async () => {
    const badSettings = { ...SECRETS, api_url: 'not a url', tenant_id: 42 };
    const invalid = await request('POST', '/api/sources', { body: { name: 'Broken', channel: 'sample', settings: badSettings } });
    assert.equal(invalid.status, 422);
    // Secrets of the wrong type, so the schema complains about the very values.
    const wrongTypes = { api_key: [SECRETS.api_key], webhook_secret: { value: SECRETS.webhook_secret }, verify_token: 7 };
    assert.equal((await request('POST', '/api/sources', { body: { name: 'Typed', channel: 'sample', settings: wrongTypes } })).status, 422);
    assert.equal((await request('PATCH', `/api/sources/${source.id}`, { body: { settings: badSettings } })).status, 422);
    assert.equal((await request('PATCH', `/api/sources/${source.id}`, { body: { settings: wrongTypes } })).status, 422);
    const duplicate = await request('POST', '/api/sources', { body: { name: source.name, channel: 'sample', settings: SECRETS } });
    assert.equal(duplicate.status, 409);
    const unknownChannel = await request('POST', '/api/sources', { body: { name: 'Elsewhere', channel: 'nowhere', settings: SECRETS } });
    assert.equal(unknownChannel.status, 422);
    const extraField = await request('POST', '/api/sources', { body: { name: 'Extra', channel: 'sample', settings: SECRETS, secret: SECRETS.api_key } });
    assert.equal(extraField.status, 422);
  });

  test('refused and redeemed credentials are not echoed: a forged token, a login code used twice', async () => {
    const forged = signAdminToken({ sub: 'mallory', role: 'admin' }, 'another-secret-another-secret-0123456789', { ttl: '1h' });
    needles.addToken('a forged token', forged);
    assert.equal((await request('GET', '/api/sources', { authorization: `Bearer ${forged}` })).status, 401);
    const code = await t.services.loginLinks.create({ sub: 'alice', role: 'admin' }, 60_000);
    needles.add('a login code', code);
    const login = await t.request('POST', '/api/auth/login', { body: { code } });
    assert.equal(login.status, 200, 'the exchange answers a token, by design: only the code is checked here');
    needles.assertAbsent(login.text.replace(login.body.token, ''), 'the login answer');
    needles.addToken('the token a login answered', login.body.token);
    assert.equal((await request('POST', '/api/auth/login', { authorization: '', body: { code } })).status, 401);
  });

  test('a duplicate workflow name answers 409 without secrets', async () => {
    assert.equal((await request('POST', '/api/workflows', { body: { name: 'Greeting', yaml: workflowYaml() } })).status, 409);
  });

  test('the webhook handshake, a signed event and a forged one answer without secrets', async () => {
    const handshake = await request('GET', `/api/webhook/${source.ref}?verify_token=${SECRETS.verify_token}&challenge=c-123`, { authorization: '' });
    assert.equal(handshake.status, 200);
    assert.equal(handshake.text, 'c-123');
    const raw = JSON.stringify({ events: [{ id: 'evt-1', sender: { id: 'u-1', first_name: 'Ada' }, message: { text: 'hi' } }] });
    const headers = { 'content-type': 'application/json', 'x-bot-signature': signed(raw) };
    assert.equal((await request('POST', `/api/webhook/${source.ref}`, { authorization: '', body: raw, headers })).status, 200);
    const forged = { ...headers, 'x-bot-signature': signed(`${raw} `) };
    assert.equal((await request('POST', `/api/webhook/${source.ref}`, { authorization: '', body: raw, headers: forged })).status, 401);
  });

  test('processing the event uses the API key, so the checks below look where secrets were in play', async () => {
    const event: { id: string } = await t.database.db('inbound_events').where({ event_id: 'evt-1' }).first('id');
    const claimed = await claimAndProcess(t.database.db, t.services.inboundEvents);
    assert.deepEqual(claimed.map((row) => row.id), [event.id]);
    const [message] = await platform.waitFor(1);
    assert.equal(message!.authorization, `Bearer ${SECRETS.api_key}`);
    const run = await request('POST', `/api/workflows/${workflowId}/runs`, { body: { input: { text: 'hello' } } });
    assert.equal(run.status, 200, run.text);
  });

  test('every GET route of the document, lists and items, answers without a secret', async () => {
    const document = (await request('GET', '/api/openapi.json')).body;
    const gets = operationsOf(document).filter((operation) => operation.method === 'GET');
    const called: string[] = [];
    for (const operation of gets) {
      const url = await fillWithStoredIds(operation.path);
      const response = await request('GET', url);
      assert.ok(response.status < 500, `${operation.key}: ${response.status}`);
      called.push(operation.key);
    }
    assert.deepEqual(called, gets.map((operation) => operation.key));
  });

  test('an attachment download answers without the download secret', async () => {
    await t.services.attachments.store.save(source.id, 'note.txt', 'hello');
    const link = await t.services.attachments.publicUrl('sample', source.id, 'note.txt');
    needles.addToken('a download token', new URL(link).searchParams.get('t')!);
    const response = await request('GET', link.slice(TEST_PUBLIC_URL.length), { authorization: '' });
    assert.equal(response.status, 200);
  });
});

/**
 * The path with `{id}` replaced by the id of a stored row: the first item of the list the path
 * extends (`/api/sources/{id}` → `GET /api/sources`), so item routes answer 200 with real data.
 */
async function fillWithStoredIds(path: string): Promise<string> {
  const match = /^(.*?)\/\{id\}/.exec(path);
  if (!match) return path;
  const list = await request('GET', match[1]!);
  const id: string | undefined = list.body?.items?.[0]?.id;
  assert.ok(id, `${match[1]} lists no item to read`);
  return path.replace('{id}', id);
}

describe('no log line carries a secret setting, a token or a host secret', () => {
  test('the host logged every request above, failures included, at the most detailed level', () => {
    const lines = logs.lines().map((line) => JSON.parse(line) as { msg: string; status?: number; level: number });
    assert.ok(lines.filter((line) => line.msg === 'request').length > 20, 'request lines');
    assert.ok(lines.some((line) => line.status === 422) && lines.some((line) => line.status === 409), 'failed requests');
    assert.ok(lines.some((line) => line.level === 20), 'debug lines (error details)');
  });

  test('none of those lines contains a secret', () => {
    for (const [index, line] of logs.lines().entries()) needles.assertAbsent(line, `log line ${index}`);
  });

  test('the logger redacts secret settings, passwords, tokens and Authorization wherever a caller logs them', () => {
    const { logger, lines } = captureLogs();
    logger.info({ req: { headers: { authorization: adminAuthorization, cookie: `session=${SECRETS.api_key}` } } }, 'a request');
    logger.info({ settings: SECRETS }, 'settings');
    logger.info({ user: { password: SECRETS.api_key, token: SECRETS.webhook_secret, secret: SECRETS.verify_token } }, 'credentials');
    assert.equal(lines().length, 3);
    for (const line of lines()) needles.assertAbsent(line, `the "${(JSON.parse(line) as { msg: string }).msg}" line`);
  });
});
