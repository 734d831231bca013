import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PERMISSIONS } from '../../host/auth/permissions.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
  // A role an operator added beside the seeded ones: the panel cannot know what it holds.
  await t.database.db('roles').insert({ name: 'auditor', description: 'Reads runs and the inbox' });
  await t.database.db('role_permissions').insert([
    { role: 'auditor', permission: 'inbox:read' },
    { role: 'auditor', permission: 'run:read' },
  ]);
});
after(() => t.close());

test("GET /api/auth/me answers the token's subject, role and the role's permissions, in vocabulary order", async () => {
  const auditor = await t.request('GET', '/api/auth/me', { authorization: `Bearer ${t.tokenFor('auditor', 'ann@example.com')}` });
  assert.equal(auditor.status, 200, auditor.text);
  assert.deepEqual(auditor.body, { sub: 'ann@example.com', role: 'auditor', permissions: ['run:read', 'inbox:read'] });

  const admin = await t.request('GET', '/api/auth/me', { as: 'admin' });
  assert.deepEqual(admin.body.permissions, [...PERMISSIONS]);
  const viewer = await t.request('GET', '/api/auth/me', { as: 'viewer' });
  assert.ok(viewer.body.permissions.every((permission: string) => permission.endsWith(':read')));
});

test('any valid token may ask, even of a role that holds nothing; no token is a 401', async () => {
  const nobody = await t.request('GET', '/api/auth/me', { authorization: `Bearer ${t.tokenFor('unknown-role')}` });
  assert.equal(nobody.status, 200, nobody.text);
  assert.deepEqual(nobody.body.permissions, []);
  const anonymous = await t.request('GET', '/api/auth/me');
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.body.error.code, 'BOT_ERR_AUTH_TOKEN_MISSING');
});
