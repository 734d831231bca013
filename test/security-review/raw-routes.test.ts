import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inject } from 'light-my-request';
import { buildApp } from '../../host/app.ts';
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../support/test-app.ts';

// Raw routes are mounted from the same list as the API's: HEAD and OPTIONS must not slip past
// the credential each one checks, and the API's HEAD must still authenticate.
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

test('HEAD /metrics needs the metrics token as GET does, and OPTIONS answers only what is allowed', async () => {
  const handler = buildApp(t.services, { authSecret: TEST_AUTH_SECRET, maxBodyBytes: 1024, metricsToken: METRICS_TOKEN }).callback();
  for (const method of ['GET', 'HEAD'] as const) {
    assert.equal((await inject(handler, { method, url: '/metrics' })).statusCode, 401, method);
    assert.equal((await inject(handler, { method, url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode, 200, method);
  }
  const options = await inject(handler, { method: 'OPTIONS', url: '/metrics' });
  assert.equal(options.payload, '', 'no metrics in an OPTIONS answer');
});

test('HEAD on the new API routes authenticates; OPTIONS leaks no data; an unknown webhook is 404, never a redirect', async () => {
  for (const url of ['/api/test-memory', '/api/workflows/00000000-0000-4000-8000-000000000000/draft', '/api/runs?q=x', '/api/memory-records/00000000-0000-4000-8000-000000000000']) {
    assert.equal((await t.request('HEAD', url)).status, 401, url);
    const options = await t.request('OPTIONS', url);
    assert.equal(options.text, '', url);
  }
  for (const method of ['GET', 'POST', 'HEAD'] as const) {
    const answer = await t.request(method, '/api/webhook/no-such-ref-0123456789', { body: method === 'POST' ? { any: 1 } : undefined });
    assert.equal(answer.status, 404, method);
    assert.equal(answer.headers.location, undefined);
  }
});
