import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppError } from '../../../host/errors/app-error.ts';
import { evaluateExpression, MAX_EXPRESSION_RESULT_BYTES, type ExpressionScope } from '../../../host/workflows/expressions/evaluate-expression.ts';
import { evaluateInputs } from '../../../host/workflows/expressions/evaluate-inputs.ts';

const scope: ExpressionScope = { context: { memory: {} }, input: { message_type: 'text', text: 'hello' }, outputs: {} };
// A generous time limit: these tests are about size, and a busy machine must not turn a size
// refusal into a timeout.
const options = { timeoutMs: 10_000 };

/** Asserts BOT_ERR_WORKFLOW_EXPRESSION_RESULT_TOO_LARGE naming the expression at `path`. */
function tooLarge(path: string, source: string) {
  return (error: unknown) => {
    assert.ok(isAppError(error), `expected an AppError, got ${String(error)}`);
    assert.equal(error.code, 'BOT_ERR_WORKFLOW_EXPRESSION_RESULT_TOO_LARGE');
    assert.equal(error.message, `Expression ${path} "=${source}" evaluated to more than ${MAX_EXPRESSION_RESULT_BYTES} bytes of data (counted with the task's other inputs)`);
    assert.deepEqual(error.details, { path, expression: `=${source}`, jsonataCode: undefined, position: undefined, limitBytes: MAX_EXPRESSION_RESULT_BYTES });
    return true;
  };
}

test('the limit is 1 MiB', () => {
  assert.equal(MAX_EXPRESSION_RESULT_BYTES, 1024 * 1024);
});

test('a 100 MB string built within the time limit is refused, quickly, naming the expression', async () => {
  const source = '$pad("", 100000000)';
  const started = Date.now();
  await assert.rejects(evaluateExpression(source, scope, { ...options, path: 'inputs.text' }), tooLarge('inputs.text', source));
  assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms: the string was built before it was measured`);
});

for (const [what, source, fits] of [
  ['a string just under the limit', '$pad("", 1000000)', true],
  ['many strings adding up past it', '[1..2000].$pad("", 1000)', false],
  ['400,000 two-byte characters (800 kB of UTF-8)', '$pad("", 400000, "é")', true],
  ['600,000 two-byte characters (1.2 MB of UTF-8, though 600,000 UTF-16 units)', '$pad("", 600000, "é")', false],
  ['an object whose keys carry the bulk', '$merge([1..2000].{ $pad($string($), 1000, "k"): 1 })', false],
] as const) {
  test(`${what} ${fits ? 'is allowed' : 'is refused'}`, async () => {
    const evaluating = evaluateExpression(source, scope, { ...options, path: 'inputs.x' });
    if (fits) await evaluating;
    else await assert.rejects(evaluating, tooLarge('inputs.x', source));
  });
}

test("a task's expressions share the limit, so several cannot add up to what one may not yield", async () => {
  const half = '$pad("", 600000)';
  await assert.rejects(evaluateInputs({ a: `=${half}`, b: [`=${half}`] }, scope, options), tooLarge('inputs.b[0]', half));
  assert.equal(((await evaluateInputs({ a: `=${half}` }, scope, options)).a as string).length, 600_000);
});
