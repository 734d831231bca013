import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sources', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // The unguessable reference in webhook URLs; knowing it is what lets a platform post.
    table.text('ref').notNullable().unique({ indexName: 'sources_ref_unique' });
    table.text('name').notNullable();
    table.text('channel').notNullable();
    table.jsonb('settings').notNullable();
    table.boolean('active').notNullable().defaultTo(true);
    // Workflows arrive later; the reference is checked then.
    table.text('default_workflow_id');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX sources_name_unique ON sources (lower(name))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sources');
}
