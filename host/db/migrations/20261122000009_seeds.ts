import type { Knex } from 'knex';

/** Which one-time seeds ran, so what an operator deletes afterwards is not put back at the next start. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('seeds', (table) => {
    table.text('name').primary();
    table.timestamp('applied_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('seeds');
}
