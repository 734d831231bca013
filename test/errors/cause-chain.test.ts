import assert from 'node:assert/strict';
import { test } from 'node:test';
import { causes, innermostCause } from '../../host/errors/cause-chain.ts';

test('walks an error and its causes, outermost first', () => {
  const inner = new Error('connect ECONNREFUSED');
  const middle = new Error('fetch failed', { cause: inner });
  const outer = new Error('egress failed', { cause: middle });
  assert.deepEqual([...causes(outer)], [outer, middle, inner]);
  assert.equal(innermostCause(outer), inner);
});

test('stops at a cause seen before, so a cyclic chain ends', () => {
  const first = new Error('first');
  const second = new Error('second', { cause: first });
  Object.assign(first, { cause: second });
  assert.deepEqual([...causes(first)], [first, second]);
});

test('stops after the given number of links', () => {
  let error = new Error('0');
  for (let index = 1; index < 20; index++) error = new Error(String(index), { cause: error });
  assert.equal([...causes(error)].length, 8);
  assert.deepEqual([...causes(error, 3)].map((link) => (link as Error).message), ['19', '18', '17']);
});

test('a thrown non-error is a chain of one, and nothing thrown is an empty chain', () => {
  assert.deepEqual([...causes('boom')], ['boom']);
  assert.deepEqual([...causes(undefined)], []);
  assert.equal(innermostCause('boom'), 'boom');
});
