import type { Knex } from 'knex';

/**
 * The order events arrived in, and the holds a conversation's unfinished message puts on its
 * later ones: the job queue runs a conversation's jobs in order, but lets later ones run while a
 * failed one waits for its retry. A hold is written only then (or while the message runs under
 * another instance's claim), so the common path pays for no index over unfinished events; a
 * hold counts only while its event is still queued or running.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE inbound_events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY');
  await knex.schema.createTable('conversation_holds', (table) => {
    table.uuid('inbound_event_id').primary().references('inbound_events.id').onDelete('CASCADE');
    table.uuid('source_id').notNullable();
    table.text('sender_foreign_id').notNullable();
    table.bigInteger('seq').notNullable();
    table.index(['source_id', 'sender_foreign_id', 'seq'], 'conversation_holds_conversation_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('conversation_holds');
  await knex.raw('ALTER TABLE inbound_events DROP COLUMN seq');
}
