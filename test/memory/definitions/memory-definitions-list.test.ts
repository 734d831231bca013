import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createDefinition, DEFINITIONS_URL } from './definition-requests.ts';

let t: TestApp;

/** Seeded in this order, one minute apart, so createdAt order is the order below. */
const SEED = [
  { name: 'Gamma 100% Score', scope: 'workflow', ttlSeconds: 3600 },
  { name: 'Alpha Contact', scope: 'global', ttlSeconds: 60 },
  { name: 'beta notes', scope: 'thread' },
  { name: 'Delta Run', scope: 'run', ttlSeconds: 10 },
  { name: 'Epsilon', slug: 'eps_custom', scope: 'global' },
];

before(async () => {
  t = await createTestApp();
  for (const definition of SEED) {
    await createDefinition(t, definition);
    t.clock.advance(60_000);
  }
  const [alpha] = (await list('?q=alpha')).items;
  await t.request('PATCH', `${DEFINITIONS_URL}/${alpha.id}`, { as: 'admin', body: { ttlSeconds: 90 } });
});
after(() => t.close());

async function list(query = '') {
  const response = await t.request('GET', `${DEFINITIONS_URL}${query}`, { as: 'viewer' });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);

test('lists every definition sorted by name, case-insensitively, with the total', async () => {
  const page = await list();
  assert.equal(page.total, 5);
  assert.deepEqual(names(page), ['Alpha Contact', 'beta notes', 'Delta Run', 'Epsilon', 'Gamma 100% Score']);
});

const SEARCHES: [q: string, expected: string[]][] = [
  ['CONTACT', ['Alpha Contact']],
  ['eps_cus', ['Epsilon']],
  ['_run', ['Delta Run']],
  ['%', ['Gamma 100% Score']],
  ['nothing like this', []],
];

for (const [q, expected] of SEARCHES) {
  test(`q=${q} matches name or slug literally and case-insensitively`, async () => {
    const page = await list(`?q=${encodeURIComponent(q)}`);
    assert.deepEqual(names(page), expected);
    assert.equal(page.total, expected.length);
  });
}

test('scope filters, alone and with a search', async () => {
  assert.deepEqual(names(await list('?scope=global')), ['Alpha Contact', 'Epsilon']);
  assert.deepEqual(names(await list('?scope=global&q=eps')), ['Epsilon']);
});

const SORTS: [sort: string, pick: (item: Record<string, unknown>) => unknown, expected: unknown[]][] = [
  ['-name', (item) => item.name, ['Gamma 100% Score', 'Epsilon', 'Delta Run', 'beta notes', 'Alpha Contact']],
  ['slug', (item) => item.slug, ['alpha_contact', 'beta_notes', 'delta_run', 'eps_custom', 'gamma_100_score']],
  ['scope', (item) => item.scope, ['global', 'global', 'run', 'thread', 'workflow']],
  ['-scope', (item) => item.scope, ['workflow', 'thread', 'run', 'global', 'global']],
  ['ttlSeconds', (item) => item.ttlSeconds, [10, 90, 3600, null, null]],
  ['-ttlSeconds', (item) => item.ttlSeconds, [null, null, 3600, 90, 10]],
  ['createdAt', (item) => item.name, SEED.map((seed) => seed.name)],
  ['-createdAt', (item) => item.name, SEED.map((seed) => seed.name).reverse()],
  ['-updatedAt', (item) => item.name, ['Alpha Contact', 'Epsilon', 'Delta Run', 'beta notes', 'Gamma 100% Score']],
];

for (const [sort, pick, expected] of SORTS) {
  test(`sort=${sort} orders the list`, async () => {
    const page = await list(`?sort=${sort}`);
    assert.deepEqual(page.items.map(pick), expected);
  });
}

test('pages with limit and offset cover the list once, each with the full total', async () => {
  const full = names(await list('?sort=scope'));
  const pages = [];
  for (let offset = 0; offset < 6; offset += 2) pages.push(await list(`?sort=scope&limit=2&offset=${offset}`));
  assert.deepEqual(pages.flatMap(names), full, 'ties on scope break the same way on every page');
  assert.deepEqual(pages.map((page) => page.total), [5, 5, 5]);
});

test('an offset past the end answers no items and the total', async () => {
  assert.deepEqual(await list('?offset=10'), { items: [], total: 5 });
});

for (const query of ['?sort=color', '?limit=0', '?limit=201', '?offset=-1', '?scope=session']) {
  test(`a bad list query ${query} answers 422`, async () => {
    const response = await t.request('GET', `${DEFINITIONS_URL}${query}`, { as: 'viewer' });
    assert.equal(response.status, 422);
    assert.equal(response.body.error.code, 'BOT_ERR_HTTP_VALIDATION');
  });
}
