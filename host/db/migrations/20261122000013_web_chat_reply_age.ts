import type { Knex } from 'knex';

/** Live chat replies by age, so the retention sweep deletes the oldest without scanning the table. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX web_chat_replies_created_at_idx ON web_chat_replies (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX web_chat_replies_created_at_idx');
}
