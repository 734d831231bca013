import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('memory_definitions', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('name').notNullable();
    table.text('slug').notNullable().unique({ indexName: 'memory_definitions_slug_unique' });
    table.text('scope').notNullable().checkIn(['global', 'workflow', 'thread', 'run'], 'memory_definitions_scope_check');
    table.integer('ttl_seconds').checkPositive('memory_definitions_ttl_check');
    table.jsonb('schema').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // Names are unique regardless of case: "Customer profile" and "Customer Profile" would confuse.
  await knex.raw('CREATE UNIQUE INDEX memory_definitions_name_unique ON memory_definitions (lower(name))');
  await knex.raw(`ALTER TABLE memory_definitions ADD CONSTRAINT memory_definitions_slug_check CHECK (slug ~ '^[a-z0-9_]+$')`);

  await knex.schema.createTable('memory_records', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('definition_id').notNullable().references('memory_definitions.id').onDelete('CASCADE');
    table.text('owner_id').notNullable();
    table.text('workflow_id');
    table.text('thread_id');
    table.text('run_id');
    // The identity part the definition's scope adds to owner + definition: '' for global, else
    // the workflow, thread or run id. One unique index then enforces every scope's identity.
    table.text('scope_key').notNullable();
    table.jsonb('value').notNullable();
    table.timestamp('expires_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['owner_id', 'definition_id', 'scope_key'], { indexName: 'memory_records_identity_unique' });
  });
  await knex.raw('CREATE INDEX memory_records_definition_idx ON memory_records (definition_id)');
  await knex.raw('CREATE INDEX memory_records_expiry_idx ON memory_records (expires_at) WHERE expires_at IS NOT NULL');
  await knex.raw('CREATE INDEX memory_records_run_idx ON memory_records (run_id) WHERE run_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('memory_records');
  await knex.schema.dropTable('memory_definitions');
}
