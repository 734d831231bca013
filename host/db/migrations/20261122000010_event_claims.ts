import type { Knex } from 'knex';

/**
 * Who is processing an inbound event: the attempt that claimed it writes a token and the time,
 * and only that attempt may finish it, so an instance wrongly thought dead (a long pause, a
 * failover) cannot overwrite the outcome of the instance that took over. Steps reused from an
 * earlier attempt of the same event are marked so the run history says so.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inbound_events', (table) => {
    table.uuid('claim_token');
    table.timestamp('claimed_at', { useTz: true });
  });
  await knex.schema.alterTable('workflow_run_steps', (table) => {
    table.boolean('reused').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_run_steps', (table) => table.dropColumn('reused'));
  await knex.schema.alterTable('inbound_events', (table) => {
    table.dropColumn('claim_token');
    table.dropColumn('claimed_at');
  });
}
