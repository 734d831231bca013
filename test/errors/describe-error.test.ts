import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../host/errors/app-error.ts';
import { describeError } from '../../host/errors/describe-error.ts';

test("describes an error by its own code and message", () => {
  assert.deepEqual(describeError(new AppError('BOT_ERR_RUN_NOT_FOUND', 'no such run'), 'BOT_ERR_INTERNAL'), { code: 'BOT_ERR_RUN_NOT_FOUND', message: 'no such run' });
  assert.deepEqual(describeError(Object.assign(new Error('refused'), { code: 'SAMPLE_ERR_QUOTA' }), 'BOT_ERR_INTERNAL'), { code: 'SAMPLE_ERR_QUOTA', message: 'refused' });
});

test('falls back to the given code when the error has none, and to the text of a non-error', () => {
  assert.deepEqual(describeError(new Error('boom'), 'BOT_ERR_PLUGIN_LOAD_FAILED'), { code: 'BOT_ERR_PLUGIN_LOAD_FAILED', message: 'boom' });
  assert.deepEqual(describeError('plain text', 'BOT_ERR_INTERNAL'), { code: 'BOT_ERR_INTERNAL', message: 'plain text' });
  assert.deepEqual(describeError(Object.assign(new Error('odd'), { code: 42 }), 'BOT_ERR_INTERNAL'), { code: 'BOT_ERR_INTERNAL', message: 'odd' });
});
