import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inbound_events', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('source_id').notNullable().references('sources.id').onDelete('CASCADE');
    // The platform's id of the event: a retried delivery carries the same one.
    table.text('event_id').notNullable();
    table.text('workflow_id');
    table.text('sender_foreign_id');
    // The event's plain form (PlainInboundEvent), exactly as the channel decoded it.
    table.jsonb('event').notNullable();
    table.text('status').notNullable().defaultTo('queued').checkIn(['queued', 'running', 'done', 'skipped', 'failed'], 'inbound_events_status_check');
    table.text('reason');
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['source_id', 'event_id'], { indexName: 'inbound_events_source_event_unique' });
  });
  await knex.raw(`CREATE INDEX inbound_events_status_idx ON inbound_events (status, received_at)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('inbound_events');
}
