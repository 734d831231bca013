import type { Knex } from 'knex';

/**
 * Operators' enable/disable choices per channel name. A channel without a row is enabled: a
 * newly installed channel serves traffic without a further step.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('channel_states', (table) => {
    table.text('name').primary();
    table.boolean('enabled').notNullable();
    table.text('updated_by');
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('channel_states');
}
