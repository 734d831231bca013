import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BranchLog } from '../../host/workflows/expressions/branch-log.ts';
import { evaluateInputs } from '../../host/workflows/expressions/evaluate-inputs.ts';

// The hook that records branches is bound into every run's evaluation: an author's expression
// must not be able to name it, or it could forge branches, log without bound, or change results.
const scope = { context: { memory: {} }, input: { text: 'x' }, outputs: {} };

async function evaluateLogged(expression: string) {
  const branches = new BranchLog();
  const plain = await evaluateInputs({ a: expression }, scope, { timeoutMs: 1_000 }).catch((error: Error) => error.message);
  const logged = await evaluateInputs({ a: expression }, scope, { timeoutMs: 1_000, branches }).catch((error: Error) => error.message);
  return { plain, logged, taken: branches.taken() };
}

for (const name of ['__branch_taken', '`branch taken`', 'branch taken', '__branch']) {
  test(`an expression cannot call the branch hook by name ($${name}) to forge or flood the log`, async () => {
    const { logged, taken } = await evaluateLogged(`=[1..500].$${name}($, true)`);
    assert.deepEqual(taken, [], JSON.stringify(logged).slice(0, 200));
  });
}

test('an expression cannot rebind the hook: assigning the name leaves results and branches as without logging', async () => {
  const { plain, logged, taken } = await evaluateLogged('=($__branch_taken := function($i, $t) { false }; $input.text = "x" ? "then" : "else")');
  assert.deepEqual(plain, { a: 'then' });
  assert.deepEqual(logged, plain, 'logging the branches does not change what the expression gives');
  assert.deepEqual(taken, [{ input: 'a', index: 0, took: 'then' }]);
});

test('a lambda parameter of the same name does not capture the hook either', async () => {
  const { plain, logged } = await evaluateLogged('=(function($__branch_taken) { $input.text = "x" ? 1 : 2 })(42)');
  assert.deepEqual(logged, plain);
});

test('a conditional evaluated many times stays one entry of the log', async () => {
  const { taken } = await evaluateLogged('=$map([1..2000], function($n) { $n % 2 = 0 ? 1 : 0 })');
  assert.deepEqual(taken, [{ input: 'a', index: 0, took: 'both' }]);
});
