import type { Knex } from 'knex';

/**
 * Workflows and their versions. A version is never changed once written: saving adds one, and
 * `workflows.current_version` says which is live. Other tables (runs, sources) keep workflow ids
 * without foreign keys, so deleting a workflow never cascades into history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workflows', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('name').notNullable();
    table.integer('current_version').notNullable().checkPositive('workflows_current_version_check');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX workflows_name_unique ON workflows (lower(name))');

  await knex.schema.createTable('workflow_versions', (table) => {
    table.uuid('workflow_id').notNullable().references('workflows.id').onDelete('CASCADE');
    table.integer('version').notNullable().checkPositive('workflow_versions_version_check');
    // The text as the author wrote it (comments, order, layout), and what it parsed to.
    table.text('yaml').notNullable();
    table.jsonb('document').notNullable();
    // The memory definitions the version's `kind: memory` defs bind, extracted once when it is
    // saved, so "which workflows use this definition" is an indexed lookup, not a walk of every
    // document.
    table.specificType('memory_definition_ids', 'uuid[]').notNullable().defaultTo('{}');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.text('created_by');
    table.primary(['workflow_id', 'version'], { constraintName: 'workflow_versions_pkey' });
  });
  await knex.raw('CREATE INDEX workflow_versions_memory_definitions_idx ON workflow_versions USING gin (memory_definition_ids)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workflow_versions');
  await knex.schema.dropTable('workflows');
}
