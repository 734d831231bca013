import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppError } from '../../../host/errors/app-error.ts';
import { evaluateExpression, type ExpressionScope } from '../../../host/workflows/expressions/evaluate-expression.ts';

const scope: ExpressionScope = {
  context: { memory: { profile: { name: 'Ada', tags: ['vip', 'early'] } } },
  input: { message_type: 'text', text: 'hello' },
  outputs: {},
};

const evaluate = (source: string, within: ExpressionScope = scope) => evaluateExpression(source, within, { timeoutMs: 1_000 });

const cases: { name: string; source: string; expected: unknown }[] = [
  { name: 'a memory field by slug', source: '$context.memory.profile.name', expected: 'Ada' },
  { name: 'a field of the inbound message', source: '$input.text', expected: 'hello' },
  { name: 'concatenation with &', source: '"Hi " & $context.memory.profile.name & ", you said " & $input.text', expected: 'Hi Ada, you said hello' },
  { name: '$exists of a loaded slug', source: '$exists($context.memory.profile)', expected: true },
  { name: 'the true branch of ? :', source: '$input.text = "hello" ? "greeting" : "other"', expected: 'greeting' },
  { name: 'the false branch of ? :', source: '$input.text = "bye" ? "farewell" : "other"', expected: 'other' },
  { name: 'an array field', source: '$context.memory.profile.tags', expected: ['vip', 'early'] },
];

for (const { name, source, expected } of cases) {
  test(`evaluates ${name}`, async () => {
    assert.deepEqual(await evaluate(source), expected);
  });
}

test('a memory slug without a record is a missing key: undefined, false for $exists, and a fallback applies', async () => {
  const withoutMemory: ExpressionScope = { ...scope, context: { memory: {} } };
  assert.equal(await evaluate('$context.memory.profile.name', withoutMemory), undefined);
  assert.equal(await evaluate('$exists($context.memory.profile)', withoutMemory), false);
  assert.equal(await evaluate('$exists($context.memory.profile.name) ? $context.memory.profile.name : "stranger"', withoutMemory), 'stranger');
});

test('earlier outputs are $outputs by task name, and $<task> when the name is a plain variable name', async () => {
  const withOutputs: ExpressionScope = { ...scope, outputs: { ask: { text: 'A' }, 'my-task': { text: 'B' } } };
  assert.equal(await evaluate('$ask.text & $outputs.ask.text & $outputs.`my-task`.text', withOutputs), 'AAB');
});

test('a task named like a JSONata function or a scope variable does not shadow it', async () => {
  const withOutputs: ExpressionScope = { ...scope, outputs: { count: 'not a function', input: 'not the message' } };
  assert.equal(await evaluate('$count([1, 2]) & " " & $input.text & " " & $outputs.count', withOutputs), '2 hello not a function');
});

test('results are plain JSON data: sequences become arrays without flags, functions are dropped', async () => {
  const sequence = await evaluate('$context.memory.profile.tags.$uppercase($)');
  assert.deepEqual(sequence, ['VIP', 'EARLY']);
  assert.deepEqual(Object.keys(sequence as object), ['0', '1']);
  assert.deepEqual(await evaluate('{ "n": 1, "f": function($x) { $x } }'), { n: 1 });
  assert.equal(await evaluate('function($x) { $x }'), undefined);
});

test('the result does not share objects with the run state', async () => {
  const profile = (await evaluate('$context.memory.profile')) as { tags: string[] };
  profile.tags.push('changed');
  assert.deepEqual((scope.context.memory as { profile: { tags: string[] } }).profile.tags, ['vip', 'early']);
});

test('a tight loop is stopped at the time limit with a timeout error naming the expression', async () => {
  const started = Date.now();
  const failure = await evaluateExpression('$map([1..1000000], function($x) { $x * 2 })', scope, { timeoutMs: 100, path: 'inputs.text' }).then(
    () => assert.fail('the loop finished'),
    (error: unknown) => error,
  );
  assert.ok(Date.now() - started < 600, `stopped after ${Date.now() - started} ms`);
  assert.ok(isAppError(failure));
  assert.equal(failure.code, 'BOT_ERR_WORKFLOW_EXPRESSION_TIMEOUT');
  assert.equal(failure.message, 'Expression inputs.text "=$map([1..1000000], function($x) { $x * 2 })" ran longer than 100 ms');
});

test('nested loops are stopped at the time limit', async () => {
  const started = Date.now();
  const nested = '$map([1..1000], function($i) { $map([1..1000], function($j) { $i * $j }) })';
  await assert.rejects(evaluateExpression(nested, scope, { timeoutMs: 100 }), { code: 'BOT_ERR_WORKFLOW_EXPRESSION_TIMEOUT' });
  assert.ok(Date.now() - started < 600);
});

test('a loop over ten million items is refused before it starts, on the sequence limit', async () => {
  const started = Date.now();
  await assert.rejects(evaluateExpression('$map([1..10000000], function($x) { $x * 2 })', scope, { timeoutMs: 1_000 }), {
    code: 'BOT_ERR_WORKFLOW_EXPRESSION_FAILED',
    message: /failed: it builds a sequence of more than 1000000 items$/,
  });
  assert.ok(Date.now() - started < 100);
});

test('an endless tail-recursive lambda is stopped at the time limit', async () => {
  const started = Date.now();
  await assert.rejects(
    evaluateExpression('($loop := function($n) { $loop($n + 1) }; $loop(0))', scope, { timeoutMs: 100 }),
    { code: 'BOT_ERR_WORKFLOW_EXPRESSION_TIMEOUT' },
  );
  assert.ok(Date.now() - started < 600);
});

test('a runaway recursion fails on the depth limit with a clear error', async () => {
  // A generous time limit, so only the depth limit can stop it.
  const runaway = evaluateExpression('($down := function($n) { 1 + $down($n + 1) }; $down(0))', scope, { timeoutMs: 10_000 });
  await assert.rejects(runaway, (error: unknown) => {
    assert.ok(isAppError(error));
    assert.equal(error.code, 'BOT_ERR_WORKFLOW_EXPRESSION_FAILED');
    assert.match(error.message, /failed: Stack overflow/);
    assert.deepEqual((error.details as { jsonataCode: string }).jsonataCode, 'D1011');
    return true;
  });
});

test('a recursion of modest depth is allowed', async () => {
  assert.equal(await evaluate('($sum := function($n) { $n = 0 ? 0 : $n + $sum($n - 1) }; $sum(300))'), 45_150);
});

test('a JSONata error and a syntax error fail with the expression in the message', async () => {
  await assert.rejects(evaluate('$number("abc")'), { code: 'BOT_ERR_WORKFLOW_EXPRESSION_FAILED', message: /^Expression "=\$number\("abc"\)" failed: / });
  await assert.rejects(evaluate('$input.text &'), { code: 'BOT_ERR_WORKFLOW_EXPRESSION_FAILED', message: /does not compile/ });
});
