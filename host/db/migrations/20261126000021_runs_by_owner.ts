import type { Knex } from 'knex';

/**
 * The runs list filters by owner (a subscriber's runs, from their page) and by workflow, newest
 * first; erasing a subscriber deletes their runs by owner too. Without these, each reads the
 * whole table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX workflow_runs_owner_recent_idx ON workflow_runs (owner_id, started_at DESC)');
  await knex.raw('CREATE INDEX workflow_runs_workflow_recent_idx ON workflow_runs (workflow_id, started_at DESC)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX workflow_runs_workflow_recent_idx');
  await knex.raw('DROP INDEX workflow_runs_owner_recent_idx');
}
