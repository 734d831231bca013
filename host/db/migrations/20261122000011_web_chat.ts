import type { Knex } from 'knex';

/**
 * Live chat (WebSocket channels): one row per browser session, and the replies to it, numbered
 * per session so a reconnecting client asks for what it has not seen (`seq` after its last).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('web_chat_sessions', (table) => {
    // The session id is the subscriber's foreign id: the signed session token carries it.
    table.uuid('id').primary();
    table.uuid('source_id').notNullable().references('sources.id').onDelete('CASCADE');
    // The seq of the session's latest reply: bumped (row lock) by each new reply.
    table.bigInteger('last_seq').notNullable().defaultTo(0);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('web_chat_replies', (table) => {
    table.uuid('session_id').notNullable().references('web_chat_sessions.id').onDelete('CASCADE');
    table.bigInteger('seq').notNullable();
    // The outbox's send key: a reply sent again is stored (and pushed) once.
    table.text('send_key').notNullable().unique({ indexName: 'web_chat_replies_send_key_unique' });
    // What the channel's encodeEnvelope produced (JSON), as the client renders it.
    table.jsonb('message').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.primary(['session_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('web_chat_replies');
  await knex.schema.dropTable('web_chat_sessions');
}
