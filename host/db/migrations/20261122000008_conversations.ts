import type { Knex } from 'knex';

/**
 * Who the host talks to and what was said: subscribers (one per source and platform user),
 * threads (a subscriber's conversation on a source, closed by inactivity), the message history
 * AI replies read, workflow runs with their steps, and outbound sends recorded before they are
 * attempted so a retried run never sends the same reply twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('subscribers', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('source_id').notNullable().references('sources.id').onDelete('CASCADE');
    table.text('foreign_id').notNullable();
    table.text('first_name').notNullable().defaultTo('');
    table.text('last_name').notNullable().defaultTo('');
    // The rest of the channel's SubscriberCreateDto, as validated.
    table.jsonb('data').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['source_id', 'foreign_id'], { indexName: 'subscribers_source_foreign_unique' });
  });

  await knex.schema.createTable('threads', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('subscriber_id').notNullable().references('subscribers.id').onDelete('CASCADE');
    table.uuid('source_id').notNullable().references('sources.id').onDelete('CASCADE');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('last_activity_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX threads_subscriber_recent_idx ON threads (subscriber_id, source_id, last_activity_at DESC)');

  await knex.schema.createTable('conversation_messages', (table) => {
    table.bigIncrements('id');
    table.uuid('thread_id').notNullable().references('threads.id').onDelete('CASCADE');
    table.text('direction').notNullable().checkIn(['in', 'out'], 'conversation_messages_direction_check');
    table.text('text').notNullable().defaultTo('');
    table.jsonb('message').notNullable();
    // An inbound message is recorded once per event, however often its run is retried.
    table.uuid('inbound_event_id').references('inbound_events.id').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`CREATE UNIQUE INDEX conversation_messages_inbound_unique ON conversation_messages (inbound_event_id) WHERE direction = 'in'`);
  await knex.raw('CREATE INDEX conversation_messages_thread_idx ON conversation_messages (thread_id, id DESC)');

  await knex.schema.createTable('workflow_runs', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('workflow_id').notNullable();
    table.integer('workflow_version').notNullable();
    table.text('mode').notNullable().checkIn(['live', 'test'], 'workflow_runs_mode_check');
    table.text('owner_id').notNullable();
    table.uuid('source_id');
    table.uuid('thread_id');
    table.uuid('inbound_event_id').references('inbound_events.id').onDelete('SET NULL');
    table.text('status').notNullable().checkIn(['running', 'succeeded', 'failed'], 'workflow_runs_status_check');
    table.jsonb('input').notNullable();
    table.jsonb('error');
    table.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('finished_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX workflow_runs_recent_idx ON workflow_runs (started_at DESC)');
  await knex.raw('CREATE INDEX workflow_runs_event_idx ON workflow_runs (inbound_event_id) WHERE inbound_event_id IS NOT NULL');

  await knex.schema.createTable('workflow_run_steps', (table) => {
    table.uuid('run_id').notNullable().references('workflow_runs.id').onDelete('CASCADE');
    table.integer('position').notNullable();
    table.text('task').notNullable();
    table.text('action').notNullable();
    table.text('status').notNullable().checkIn(['succeeded', 'failed'], 'workflow_run_steps_status_check');
    table.jsonb('inputs');
    table.jsonb('output');
    table.jsonb('error');
    table.timestamp('started_at', { useTz: true }).notNullable();
    table.timestamp('finished_at', { useTz: true }).notNullable();
    table.primary(['run_id', 'position']);
  });

  await knex.schema.createTable('outbound_messages', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // Which reply this is: the event it answers, the step and the message within the step. A
    // retried run computes the same key and finds the send already recorded.
    table.text('send_key').notNullable().unique({ indexName: 'outbound_messages_send_key_unique' });
    table.uuid('inbound_event_id').references('inbound_events.id').onDelete('SET NULL');
    table.uuid('run_id');
    table.uuid('source_id').notNullable();
    table.uuid('thread_id');
    table.jsonb('envelope').notNullable();
    table.text('status').notNullable().checkIn(['pending', 'sent', 'failed', 'uncertain'], 'outbound_messages_status_check');
    table.text('mid');
    table.jsonb('error');
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('sent_at', { useTz: true });
  });

  // graphile-worker frees the jobs of a worker that died only after 4 hours; each instance keeps
  // a lease on its workers here, and the others free the jobs of a lease that ran out.
  await knex.schema.createTable('job_worker_leases', (table) => {
    table.text('worker_id').primary();
    table.timestamp('heartbeat_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['job_worker_leases', 'outbound_messages', 'workflow_run_steps', 'workflow_runs', 'conversation_messages', 'threads', 'subscribers']) {
    await knex.schema.dropTable(table);
  }
}
