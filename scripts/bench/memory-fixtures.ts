import type { Knex } from 'knex';
import type { MemoryScope } from '../../host/memory/definitions/memory-definition.ts';
import type { MemoryTarget } from '../../host/memory/records/memory-record.ts';
import type { MemoryWriteEntry } from '../../host/memory/records/memory-record-store.ts';

/** A subscriber's working memory in the benchmark: seven global definitions and one per other scope. */
const SCOPES: MemoryScope[] = ['global', 'global', 'global', 'global', 'global', 'global', 'global', 'workflow', 'thread', 'run'];

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Name' },
    age: { type: 'integer', minimum: 0, description: 'Age in years' },
    tags: { type: 'array', items: { type: 'string' }, description: 'Labels' },
    note: { type: 'string', maxLength: 500, description: 'Free text' },
  },
  additionalProperties: false,
};

export interface BenchDefinition {
  id: string;
  slug: string;
  scope: MemoryScope;
}

/** `bench_0`…`bench_9`, each with a one-day TTL so every write also maintains the expiry index. */
export async function createBenchDefinitions(db: Knex): Promise<BenchDefinition[]> {
  const rows = SCOPES.map((scope, index) => ({
    name: `Bench ${index}`,
    slug: `bench_${index}`,
    scope,
    ttl_seconds: 86_400,
    schema: SCHEMA,
  }));
  return db('memory_definitions').insert(rows).returning(['id', 'slug', 'scope']);
}

export function benchValue(seed: number): Record<string, unknown> {
  return { name: `Subscriber ${seed}`, age: seed % 90, tags: ['bench', `t${seed % 7}`], note: 'likes short answers' };
}

export function benchTarget(ownerId: string): Required<MemoryTarget> {
  return { ownerId, workflowId: 'workflow-1', threadId: `thread-${ownerId}`, runId: `run-${ownerId}` };
}

/** One entry per definition: a subscriber's complete working memory. */
export function workingMemoryEntries(ownerId: string, definitions: BenchDefinition[], seed: number): MemoryWriteEntry[] {
  return definitions.map((definition) => ({ target: benchTarget(ownerId), slug: definition.slug, value: benchValue(seed) }));
}
