import type { Knex } from 'knex';

/**
 * Marks a test run of an unsaved draft, which an author runs from the editor without saving:
 * its `workflow_version` is the workflow's current version when it ran, not what ran, so the run
 * says it ran a draft.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_runs', (table) => {
    table.boolean('draft').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_runs', (table) => {
    table.dropColumn('draft');
  });
}
