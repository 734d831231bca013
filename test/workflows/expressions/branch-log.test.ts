import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BranchLog } from '../../../host/workflows/expressions/branch-log.ts';
import { evaluateInputs } from '../../../host/workflows/expressions/evaluate-inputs.ts';

const scope = (input: Record<string, unknown>, memory: Record<string, unknown> = {}) => ({ context: { memory }, input, outputs: {} });

async function branchesOf(inputs: Record<string, unknown>, run = scope({ text: 'hi' })) {
  const branches = new BranchLog();
  const evaluated = await evaluateInputs(inputs, run, { timeoutMs: 1_000, branches });
  return { evaluated, taken: branches.taken() };
}

describe('the branches a step took', () => {
  test('logs the way a conditional went, by input and rank, beside the value it gave', async () => {
    const { evaluated, taken } = await branchesOf({ text: '=$exists($context.memory.profile.name) ? "Hello " & $context.memory.profile.name : "Who are you?"' });
    assert.deepEqual(evaluated, { text: 'Who are you?' });
    assert.deepEqual(taken, [{ input: 'text', index: 0, took: 'else' }]);
    const named = await branchesOf({ text: '=$exists($context.memory.profile.name) ? "Hello " & $context.memory.profile.name : "Who are you?"' }, scope({}, { profile: { name: 'Ada' } }));
    assert.deepEqual(named.taken, [{ input: 'text', index: 0, took: 'then' }]);
  });

  test('ranks conditionals by the order of their `?`, leaves out one never evaluated, and names nested inputs by path', async () => {
    const { taken } = await branchesOf({ memory: { profile: '=$input.text = "hi" ? ($input.name ? 1 : 2) : ($input.text ? 3 : 4)' } });
    assert.deepEqual(taken, [
      { input: 'memory.profile', index: 0, took: 'then' },
      { input: 'memory.profile', index: 1, took: 'else' },
    ]);
  });

  test('a conditional inside a loop that goes both ways is logged as both', async () => {
    const { evaluated, taken } = await branchesOf({ text: '=$map([1, 2], function($n) { $n > 1 ? "big" : "small" })' });
    assert.deepEqual(evaluated, { text: ['small', 'big'] });
    assert.deepEqual(taken, [{ input: 'text', index: 0, took: 'both' }]);
  });

  test('follows JSONata truth (empty string, empty array, zero are false) and leaves the uninstrumented expression as written', async () => {
    const { taken } = await branchesOf({ a: '="" ? 1 : 2', b: '=[] ? 1 : 2', c: '=[0, 1] ? 1 : 2', d: '=0 ? 1 : 2' });
    assert.deepEqual(taken.map((branch) => `${branch.input}:${branch.took}`), ['a:else', 'b:else', 'c:then', 'd:else']);
    assert.deepEqual(await evaluateInputs({ a: '="" ? 1 : 2' }, scope({}), { timeoutMs: 1_000 }), { a: 2 });
  });
});
