import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
before(async () => (t = await createTestApp({ maxBodyBytes: 1024 })));
after(() => t.close());

test('an unknown path answers 404 with the error body', async () => {
  // Other GETs outside the host's own paths are the admin panel's client-side routes.
  for (const path of ['/api/nowhere', '/health/nowhere']) {
    const response = await t.request('GET', path);
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'BOT_ERR_HTTP_NOT_FOUND');
  }
  assert.equal((await t.request('POST', '/nowhere')).body.error.code, 'BOT_ERR_HTTP_NOT_FOUND');
});

test('any other GET is the admin panel (history fallback), never cached', async () => {
  const response = await t.request('GET', '/workflows/memory');
  assert.match(String(response.headers['content-type']), /text\/html/);
  assert.equal(response.headers['cache-control'], 'no-cache');
});

test('a known path with another method answers 405 with the error body', async () => {
  const response = await t.request('PUT', '/health/live');
  assert.equal(response.status, 405);
  assert.equal(response.body.error.code, 'BOT_ERR_HTTP_METHOD_NOT_ALLOWED');
  assert.match(String(response.headers.allow), /GET/);
});

test('an HTTP method the host does not serve answers 501 with the error body', async () => {
  const response = await t.request('PROPFIND' as 'GET', '/health/live');
  assert.equal(response.status, 501);
  assert.equal(response.body.error.code, 'BOT_ERR_HTTP_METHOD_NOT_IMPLEMENTED');
});

test('malformed JSON answers 400', async () => {
  const response = await t.request('POST', '/api/auth/login', { body: '{"code":' });
  assert.equal(response.status, 400);
  assert.equal(response.body.error.code, 'BOT_ERR_HTTP_MALFORMED_JSON');
});

test('a body over the limit answers 413', async () => {
  const response = await t.request('POST', '/api/auth/login', { body: { code: 'x'.repeat(2000) } });
  assert.equal(response.status, 413);
  assert.equal(response.body.error.code, 'BOT_ERR_HTTP_BODY_TOO_LARGE');
});

test('a body that is not JSON answers 415', async () => {
  const response = await t.request('POST', '/api/auth/login', { body: 'code=x', headers: { 'content-type': 'text/plain' } });
  assert.equal(response.status, 415);
});

test('a body failing the route schema answers 422 naming the field', async () => {
  const response = await t.request('POST', '/api/auth/login', { body: { code: 42 } });
  assert.equal(response.status, 422);
  assert.equal(response.body.error.code, 'BOT_ERR_HTTP_VALIDATION');
  assert.equal(response.body.error.details.issues[0].path, 'code');
});

test('liveness and readiness answer 200 on a migrated database', async () => {
  assert.equal((await t.request('GET', '/health/live')).status, 200);
  const ready = await t.request('GET', '/health/ready');
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.body, { status: 'ready' });
});

test('the OpenAPI document is public and lists the protected routes with their permission', async () => {
  const response = await t.request('GET', '/api/openapi.json');
  assert.equal(response.status, 200);
  assert.equal(response.body.openapi, '3.1.0');
  assert.equal(response.body.paths['/api/memory-definitions'].post['x-permission'], 'memory_definition:create');
  assert.deepEqual(response.body.paths['/health/ready'].get.security, []);
});

test('a webhook path reaches the webhook routes whatever its case, and another method answers 405 naming theirs', async () => {
  const unknown = await t.request('POST', '/API/Webhook/no-such-source', { body: {} });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'BOT_ERR_WEBHOOK_SOURCE_UNKNOWN');
  const wrongMethod = await t.request('PUT', '/api/webhook/no-such-source');
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.body.error.code, 'BOT_ERR_HTTP_METHOD_NOT_ALLOWED');
  assert.match(String(wrongMethod.headers.allow), /POST/);
});
