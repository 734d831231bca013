import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createDefinition, definitionBody, DEFINITIONS_URL } from './definition-requests.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
  await createDefinition(t, { name: 'Customer Profile' });
});
after(() => t.close());

const CONFLICTS: [reason: string, body: Record<string, unknown>, code: string][] = [
  ['the same name', { name: 'Customer Profile', slug: 'other_slug' }, 'BOT_ERR_MEMORY_DEFINITION_NAME_TAKEN'],
  ['the same name in other case', { name: 'customer PROFILE', slug: 'other_slug' }, 'BOT_ERR_MEMORY_DEFINITION_NAME_TAKEN'],
  ['the same name with surrounding spaces', { name: '  Customer Profile ', slug: 'other_slug' }, 'BOT_ERR_MEMORY_DEFINITION_NAME_TAKEN'],
  ['the same explicit slug', { name: 'Another Name', slug: 'customer_profile' }, 'BOT_ERR_MEMORY_DEFINITION_SLUG_TAKEN'],
  ['a name generating the same slug', { name: 'Customer-Profile' }, 'BOT_ERR_MEMORY_DEFINITION_SLUG_TAKEN'],
];

for (const [reason, body, code] of CONFLICTS) {
  test(`creating with ${reason} answers 409 ${code}`, async () => {
    const response = await t.request('POST', DEFINITIONS_URL, { as: 'admin', body: definitionBody(body) });
    assert.equal(response.status, 409);
    assert.equal(response.body.error.code, code);
  });
}

test('renaming or re-slugging onto another definition answers 409', async () => {
  const other = await createDefinition(t, { name: 'Order History' });
  const url = `${DEFINITIONS_URL}/${other.id}`;
  const name = await t.request('PATCH', url, { as: 'admin', body: { name: 'CUSTOMER profile' } });
  assert.equal(name.status, 409);
  assert.equal(name.body.error.code, 'BOT_ERR_MEMORY_DEFINITION_NAME_TAKEN');
  const slug = await t.request('PATCH', url, { as: 'admin', body: { slug: 'customer_profile' } });
  assert.equal(slug.status, 409);
  assert.equal(slug.body.error.code, 'BOT_ERR_MEMORY_DEFINITION_SLUG_TAKEN');
});

test('a definition may change the case of its own name', async () => {
  const own = await createDefinition(t, { name: 'Loyalty tier' });
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${own.id}`, { as: 'admin', body: { name: 'Loyalty Tier' } });
  assert.equal(response.status, 200, response.text);
});

test('of ten simultaneous creates with one name, exactly one succeeds and the rest answer 409', async () => {
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      t.request('POST', DEFINITIONS_URL, { as: 'admin', body: definitionBody({ name: 'Race', slug: `race_${index}` }) }),
    ),
  );
  const statuses = responses.map((response) => response.status).sort();
  assert.deepEqual(statuses, [201, ...Array(9).fill(409)]);
  const listed = await t.request('GET', `${DEFINITIONS_URL}?q=race`, { as: 'admin' });
  assert.equal(listed.body.total, 1);
});
