import type { Knex } from 'knex';

// A frozen snapshot of the permissions at the time of this migration; later migrations add to it.
const RESOURCES = ['memory_definition', 'memory_record', 'source', 'channel', 'workflow', 'run', 'subscriber', 'inbox'];
const ACTIONS = ['read', 'create', 'update', 'delete'];
const ALL = RESOURCES.flatMap((resource) => ACTIONS.map((action) => `${resource}:${action}`));

const SEEDED_ROLES: Record<string, { description: string; permissions: string[] }> = {
  admin: { description: 'Everything.', permissions: ALL },
  editor: { description: 'Everything but deleting.', permissions: ALL.filter((p) => !p.endsWith(':delete')) },
  viewer: { description: 'Read only.', permissions: ALL.filter((p) => p.endsWith(':read')) },
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('roles', (table) => {
    table.text('name').primary();
    table.text('description').notNullable();
  });
  await knex.schema.createTable('role_permissions', (table) => {
    table.text('role').notNullable().references('roles.name').onDelete('CASCADE');
    table.text('permission').notNullable();
    table.primary(['role', 'permission']);
  });
  await knex.schema.createTable('login_links', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('code_hash').notNullable().unique();
    table.text('sub').notNullable();
    table.text('role').notNullable().references('roles.name').onDelete('CASCADE');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  for (const [name, role] of Object.entries(SEEDED_ROLES)) {
    await knex('roles').insert({ name, description: role.description });
    await knex('role_permissions').insert(role.permissions.map((permission) => ({ role: name, permission })));
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_links');
  await knex.schema.dropTable('role_permissions');
  await knex.schema.dropTable('roles');
}
