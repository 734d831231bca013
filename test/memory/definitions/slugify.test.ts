import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidSlug, MAX_SLUG_LENGTH, slugify, slugProblem } from '../../../host/memory/definitions/slugify.ts';

const SLUGS: [name: string, slug: string][] = [
  ['Customer Profile', 'customer_profile'],
  ['customer_profile', 'customer_profile'],
  ['  Order -- History!! ', 'order_history'],
  ['Préférences Client', 'preferences_client'],
  ['Ünïcödé Äddress', 'unicode_address'],
  ['Plan v2 (beta)', 'plan_v2_beta'],
  ['2024 Goals', '2024_goals'],
  ['__Leading__and__trailing__', 'leading_and_trailing'],
  ['!!!', ''],
  ['日本語', ''],
];

for (const [name, slug] of SLUGS) {
  test(`slugify turns ${JSON.stringify(name)} into ${JSON.stringify(slug)}`, () => {
    assert.equal(slugify(name), slug);
  });
}

test('slugify cuts long names to the slug length limit without a trailing underscore', () => {
  const slug = slugify(`${'a'.repeat(MAX_SLUG_LENGTH - 1)} bcd`);
  assert.equal(slug, 'a'.repeat(MAX_SLUG_LENGTH - 1));
  assert.ok(isValidSlug(slug));
});

const VALIDITY: [slug: string, valid: boolean][] = [
  ['customer_profile', true],
  ['a', true],
  ['123', true],
  ['x'.repeat(MAX_SLUG_LENGTH), true],
  ['x'.repeat(MAX_SLUG_LENGTH + 1), false],
  ['', false],
  ['Customer', false],
  ['customer-profile', false],
  ['customer profile', false],
  ['café', false],
  ['a.b', false],
];

for (const [slug, valid] of VALIDITY) {
  test(`isValidSlug says ${valid} for ${JSON.stringify(slug.length > 20 ? `${slug.slice(0, 8)}…(${slug.length})` : slug)}`, () => {
    assert.equal(isValidSlug(slug), valid);
    assert.equal(slugProblem(slug) === undefined, valid);
  });
}
