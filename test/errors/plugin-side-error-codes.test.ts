import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SANDBOX_ERROR_CODES } from '../../host/channels/plugin-side/sandbox-error-codes.ts';
import { ERROR_CODES } from '../../host/errors/error-codes.ts';

test("the sandbox's codes, declared plugin-side for the runner bundle, are in the host's error table with the same status, expose and description", () => {
  for (const [code, row] of Object.entries(SANDBOX_ERROR_CODES)) {
    assert.ok(Object.hasOwn(ERROR_CODES, code), `${code} is missing from host/errors`);
    const { status, expose, description } = ERROR_CODES[code as keyof typeof ERROR_CODES];
    assert.deepEqual({ status, expose, description }, row, code);
  }
});
