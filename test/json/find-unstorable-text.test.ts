import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findUnstorableText, isStorableText } from '../../host/json/find-unstorable-text.ts';

test('finds the first string or key holding a NUL or an unpaired surrogate, by its path', () => {
  assert.equal(findUnstorableText({ a: ['ok', { b: 'x\u0000y' }] }), 'a.1.b');
  assert.equal(findUnstorableText({ 'k\uD800': 1 }), 'k\uD800');
  assert.equal(findUnstorableText('\uDC00'), '');
  assert.equal(findUnstorableText({ fine: ['😀', 1, null, true], nested: { text: 'é' } }), undefined);
});

test('walks a value nested far deeper than the stack allows recursion', () => {
  let deep: unknown = 'bottom\u0000';
  for (let level = 0; level < 50_000; level += 1) deep = [deep];
  assert.equal(findUnstorableText(deep)?.split('.').length, 50_000);
});

test('a well-formed surrogate pair is storable, a lone half is not', () => {
  assert.equal(isStorableText('😀'), true);
  assert.equal(isStorableText('\uD83D'), false);
  assert.equal(isStorableText('a\u0000'), false);
});
