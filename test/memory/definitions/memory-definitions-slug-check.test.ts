import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createDefinition, DEFINITIONS_URL } from './definition-requests.ts';

let t: TestApp;
let taken: { id: string; slug: string };
before(async () => {
  t = await createTestApp();
  taken = await createDefinition(t, { name: 'Order History' });
});
after(() => t.close());

const CHECKS: [query: string, expected: { slug: string; valid: boolean; available: boolean }][] = [
  ['name=Customer%20Profile', { slug: 'customer_profile', valid: true, available: true }],
  ['name=Order%20History', { slug: 'order_history', valid: true, available: false }],
  ['slug=order_history', { slug: 'order_history', valid: true, available: false }],
  ['slug=free_slug', { slug: 'free_slug', valid: true, available: true }],
  ['slug=Bad-Slug', { slug: 'Bad-Slug', valid: false, available: false }],
  ['slug=caf%C3%A9', { slug: 'café', valid: false, available: false }],
  ['name=%3F%3F%3F', { slug: '', valid: false, available: false }],
];

for (const [query, expected] of CHECKS) {
  test(`slug-check?${query} answers ${JSON.stringify(expected)}`, async () => {
    const response = await t.request('GET', `${DEFINITIONS_URL}/slug-check?${query}`, { as: 'viewer' });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, expected);
  });
}

test('a definition being edited sees its own slug as available', async () => {
  const response = await t.request('GET', `${DEFINITIONS_URL}/slug-check?slug=${taken.slug}&excludeId=${taken.id}`, { as: 'viewer' });
  assert.deepEqual(response.body, { slug: 'order_history', valid: true, available: true });
});

for (const query of ['', '?name=A&slug=a']) {
  test(`slug-check with ${query === '' ? 'neither name nor slug' : 'both name and slug'} answers 422`, async () => {
    const response = await t.request('GET', `${DEFINITIONS_URL}/slug-check${query}`, { as: 'viewer' });
    assert.equal(response.status, 422);
    assert.equal(response.body.error.code, 'BOT_ERR_HTTP_VALIDATION');
  });
}
