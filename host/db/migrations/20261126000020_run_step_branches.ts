import type { Knex } from 'knex';

/**
 * Records, per step, the way each conditional of its inputs went (`[{ input, index, took }]`):
 * a run drawn on the flow marks the branch each condition took. Steps recorded before have none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_run_steps', (table) => {
    table.jsonb('branches').defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_run_steps', (table) => {
    table.dropColumn('branches');
  });
}
