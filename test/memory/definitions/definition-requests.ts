import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import type { TestApp } from '../../support/test-app.ts';

export const DEFINITIONS_URL = '/api/memory-definitions';

/** A schema that passes every rule: what an admin would typically save. */
export const PROFILE_SCHEMA = {
  type: 'object',
  title: 'Customer profile',
  properties: {
    city: { type: 'string', description: 'Where the customer lives' },
    interests: { type: 'array', items: { type: 'string' }, description: 'Topics they asked about' },
  },
  required: ['city'],
};

/** A valid create body; override any field. */
export function definitionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Customer Profile', scope: 'global', schema: PROFILE_SCHEMA, ...overrides };
}

/** Creates a definition as admin and returns the response body, failing the test on any other status. */
export async function createDefinition(t: TestApp, overrides: Record<string, unknown> = {}) {
  const response = await t.request('POST', DEFINITIONS_URL, { as: 'admin', body: definitionBody(overrides) });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

/** Writes a record straight into the table, as the record store would, so locks can be tested alone. */
export async function insertRecord(db: Knex, definitionId: string, ownerId = 'subscriber-1'): Promise<void> {
  await db('memory_records').insert({ definition_id: definitionId, owner_id: ownerId, scope_key: '', value: JSON.stringify({ city: 'Oslo' }) });
}

export async function countRecords(db: Knex, definitionId: string): Promise<number> {
  const [row] = await db('memory_records').where({ definition_id: definitionId }).count<{ count: number }[]>({ count: '*' });
  return Number(row?.count ?? 0);
}
