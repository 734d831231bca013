import assert from 'node:assert/strict';
import jwt from 'jsonwebtoken';
import { after, before, describe, test } from 'node:test';
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../support/test-app.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const sign = (payload: object, secret = TEST_AUTH_SECRET) =>
  jwt.sign({ exp: Math.floor(Date.now() / 1000) + 3600, ...payload }, secret, { algorithm: 'HS256' });

describe('bearer tokens on the admin API', () => {
  const cases: { name: string; authorization?: string; code: string }[] = [
    { name: 'no Authorization header', code: 'BOT_ERR_AUTH_TOKEN_MISSING' },
    { name: 'a Basic credential', authorization: 'Basic YWRtaW46YWRtaW4=', code: 'BOT_ERR_AUTH_TOKEN_MISSING' },
    { name: 'a malformed token', authorization: 'Bearer not-a-jwt', code: 'BOT_ERR_AUTH_TOKEN_INVALID' },
    {
      name: 'a token signed with another secret',
      authorization: `Bearer ${sign({ sub: 'a', role: 'admin' }, 'another-secret-another-secret-another')}`,
      code: 'BOT_ERR_AUTH_TOKEN_INVALID',
    },
    {
      name: 'an expired token',
      authorization: `Bearer ${sign({ sub: 'a', role: 'admin', exp: Math.floor(Date.now() / 1000) - 10 })}`,
      code: 'BOT_ERR_AUTH_TOKEN_INVALID',
    },
    {
      name: 'an unsigned token (alg none)',
      authorization: `Bearer ${jwt.sign({ sub: 'a', role: 'admin' }, '', { algorithm: 'none' })}`,
      code: 'BOT_ERR_AUTH_TOKEN_INVALID',
    },
    {
      name: 'a token that never expires (no exp claim)',
      authorization: `Bearer ${jwt.sign({ sub: 'a', role: 'admin' }, TEST_AUTH_SECRET, { algorithm: 'HS256' })}`,
      code: 'BOT_ERR_AUTH_TOKEN_INVALID',
    },
    {
      name: 'a token without a role claim',
      authorization: `Bearer ${sign({ sub: 'a' })}`,
      code: 'BOT_ERR_AUTH_TOKEN_INVALID',
    },
  ];
  for (const { name, authorization, code } of cases) {
    test(`refuses ${name} with 401 ${code}`, async () => {
      const response = await t.request('GET', '/api/memory-definitions', authorization ? { authorization } : {});
      assert.equal(response.status, 401);
      assert.equal(response.body.error.code, code);
    });
  }

  test('refuses a role that does not exist with 403', async () => {
    const response = await t.request('GET', '/api/memory-definitions', { as: 'intruder' });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'BOT_ERR_AUTH_FORBIDDEN');
  });

  test('admits a valid token of a role holding the permission', async () => {
    const response = await t.request('GET', '/api/memory-definitions', { as: 'viewer' });
    assert.equal(response.status, 200);
  });

  test('says which permission is missing', async () => {
    const response = await t.request('POST', '/api/memory-definitions', { as: 'viewer', body: {} });
    assert.equal(response.status, 403);
    assert.deepEqual(response.body.error.details, { permission: 'memory_definition:create' });
  });
});
