import type { Knex } from 'knex';

/**
 * The names of the workflows whose current version binds a memory definition: such a definition
 * keeps its slug and cannot be deleted, since the workflow's expressions read it by that slug. Older versions do not count: they are
 * history, and a save that drops the binding releases the definition.
 */
export async function workflowsBindingDefinition(db: Knex, definitionId: string): Promise<string[]> {
  const rows: { name: string }[] = await db('workflows as w')
    .join('workflow_versions as v', (join) => join.on('v.workflow_id', 'w.id').andOn('v.version', 'w.current_version'))
    // `@>` on the GIN-indexed array: the index finds the versions, the join keeps current ones.
    .whereRaw('v.memory_definition_ids @> array[?]::uuid[]', [definitionId])
    .orderByRaw('lower(w.name)')
    .select('w.name');
  return rows.map(({ name }) => name);
}
