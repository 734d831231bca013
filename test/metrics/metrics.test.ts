import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inject } from 'light-my-request';
import { buildApp } from '../../host/app.ts';
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../support/test-app.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

/** The value of one sample line, e.g. `bot_inbound_events{status="queued"}`, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('GET /metrics answers Prometheus text: requests by route pattern (never the ids in the path), and the inbox counts of all instances', async () => {
  const [source] = await t.database.db('sources').insert({ ref: 'ref-metrics-secret', name: 'Metrics', channel: 'sample', settings: '{}' }).returning('id');
  await t.database.db('inbound_events').insert([
    { source_id: source.id, event_id: 'm-1', event: '{}', status: 'queued' },
    { source_id: source.id, event_id: 'm-2', event: '{}', status: 'queued' },
    { source_id: source.id, event_id: 'm-3', event: '{}', status: 'failed', attempts: 5 },
  ]);
  await t.request('GET', '/api/sources', { as: 'viewer' });
  await t.request('POST', '/api/webhook/ref-metrics-secret', { body: {} });

  const response = await t.request('GET', '/metrics');
  assert.equal(response.status, 200);
  assert.match(String(response.headers['content-type']), /^text\/plain/);
  assert.equal(sample(response.text, 'bot_http_requests_total{method="GET",route="/api/sources",status="200"}'), 1);
  assert.match(response.text, /bot_http_requests_total\{method="POST",route="\/api\/webhook\/:sourceRef",status="\d+"\} 1/);
  assert.doesNotMatch(response.text, /ref-metrics-secret/, 'a source ref never becomes a label');
  assert.equal(sample(response.text, 'bot_inbound_events{status="queued"}'), 2);
  assert.equal(sample(response.text, 'bot_inbound_events{status="failed"}'), 1);
  assert.match(response.text, /# TYPE bot_inbound_event_attempts_total counter/);
  assert.match(response.text, /# TYPE bot_outbound_sends_total counter/);
});

test('with BOT_METRICS_TOKEN set, only a scraper sending it is answered', async () => {
  const token = 'metrics-token-0123456789';
  const handler = buildApp(t.services, { authSecret: TEST_AUTH_SECRET, maxBodyBytes: 1024, metricsToken: token }).callback();
  const scrape = (authorization?: string) => inject(handler, { method: 'GET', url: '/metrics', ...(authorization ? { headers: { authorization } } : {}) });

  const anonymous = await scrape();
  assert.equal(anonymous.statusCode, 401);
  assert.equal(anonymous.json().error.code, 'BOT_ERR_AUTH_TOKEN_MISSING');
  const wrong = await scrape('Bearer metrics-token-0123456780');
  assert.equal(wrong.statusCode, 401);
  assert.equal(wrong.json().error.code, 'BOT_ERR_AUTH_TOKEN_INVALID');
  const admin = await scrape(`Bearer ${t.tokenFor('admin')}`);
  assert.equal(admin.statusCode, 401, 'an admin token is not the metrics token');
  const right = await scrape(`Bearer ${token}`);
  assert.equal(right.statusCode, 200);
  assert.match(right.body, /bot_http_requests_total/);
});
