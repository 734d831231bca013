import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateInputs } from '../../../host/workflows/expressions/evaluate-inputs.ts';
import type { ExpressionScope } from '../../../host/workflows/expressions/evaluate-expression.ts';

const scopeWith = (text: string): ExpressionScope => ({
  context: { memory: { profile: { name: 'Ada' } }, secret: 'run context' },
  input: { message_type: 'text', text },
  outputs: { reply: { text: '=$context.secret' } },
});

const options = { timeoutMs: 1_000 };

test('a subscriber message "=$context" is echoed literally, not evaluated', async () => {
  const inputs = await evaluateInputs({ text: '=$input.text' }, scopeWith('=$context'), options);
  assert.deepEqual(inputs, { text: '=$context' });
});

test('a result starting with "=" stays data wherever it lands, also inside an object result', async () => {
  const inputs = await evaluateInputs({ copy: '=$outputs.reply', nested: { text: '=$input.text' } }, scopeWith('=$context.secret'), options);
  assert.deepEqual(inputs, { copy: { text: '=$context.secret' }, nested: { text: '=$context.secret' } });
});

test('expressions are evaluated deep in objects and arrays; other values are copied as they are', async () => {
  const original = {
    memory: { profile: { name: '=$input.text', age: 36, tags: ['fixed', '="x-" & $input.text'] } },
    quick_replies: [{ title: 'Yes', payload: '=$context.memory.profile.name' }],
    flag: true,
    nothing: null,
    plain: 'no expression',
  };
  const snapshot = structuredClone(original);
  const inputs = await evaluateInputs(original, scopeWith('Grace'), options);
  assert.deepEqual(inputs, {
    memory: { profile: { name: 'Grace', age: 36, tags: ['fixed', 'x-Grace'] } },
    quick_replies: [{ title: 'Yes', payload: 'Ada' }],
    flag: true,
    nothing: null,
    plain: 'no expression',
  });
  assert.deepEqual(original, snapshot);
});

test('an expression with no value leaves its key out and is null in an array', async () => {
  const inputs = await evaluateInputs({ name: '=$context.memory.nope.name', list: ['=$context.memory.nope'] }, scopeWith('x'), options);
  assert.deepEqual(inputs, { list: [null] });
  assert.equal(Object.hasOwn(inputs, 'name'), false);
});

test('a failing expression is named by its place in the inputs', async () => {
  await assert.rejects(evaluateInputs({ memory: { profile: { age: '=$number("abc")' } } }, scopeWith('x'), options), {
    code: 'BOT_ERR_WORKFLOW_EXPRESSION_FAILED',
    message: /^Expression inputs\.memory\.profile\.age "=\$number\("abc"\)" failed/,
  });
});
