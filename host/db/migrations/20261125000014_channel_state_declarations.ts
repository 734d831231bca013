import type { Knex } from 'knex';

/**
 * What a disabled channel declared about itself when it was disabled (its file, the fingerprint
 * of its code and its description), so discovery can list it without importing its code: a
 * disabled channel's code never runs, not even to describe it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_states', (table) => {
    table.text('file');
    table.text('fingerprint');
    table.jsonb('description');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_states', (table) => {
    table.dropColumns('file', 'fingerprint', 'description');
  });
}
