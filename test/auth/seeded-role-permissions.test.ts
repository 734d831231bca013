import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SEEDED_ROLE_PERMISSIONS } from '../../host/auth/seeded-role-permissions.ts';
import { createTestDatabase } from '../support/test-database.ts';

const database = await createTestDatabase();
after(() => database.close());

test('the admin panel’s copy of the seeded roles matches what the migrations store', async () => {
  const rows = await database.db('role_permissions').whereIn('role', Object.keys(SEEDED_ROLE_PERMISSIONS)).select('role', 'permission');
  for (const [role, permissions] of Object.entries(SEEDED_ROLE_PERMISSIONS)) {
    const stored = rows.filter((row) => row.role === role).map((row) => row.permission as string);
    assert.deepEqual([...permissions].sort(), stored.sort(), role);
  }
});
