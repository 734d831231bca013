import type { Knex } from 'knex';

/**
 * The channel packages the host installs itself: the desired set every instance converges to
 * (a package's tarball is kept here, so an instance installs it without reaching the registry),
 * and the audit list of every install, upgrade and removal.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('channel_packages', (table) => {
    table.text('name').primary();
    table.text('version').notNullable();
    /** The tarball's sha512, as an SRI string (`sha512-…`). */
    table.text('integrity').notNullable();
    table.binary('tarball').notNullable();
    /** How far the tarball is vouched for: verified (registry signature), unsigned, pinned, unverified. */
    table.text('trust').notNullable();
    /** The package.json summary shown before and after install (name, egress hosts, peers…). */
    table.jsonb('manifest').notNullable();
    table.text('installed_by').notNullable();
    table.timestamp('installed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('channel_package_audit', (table) => {
    table.bigIncrements('id').primary();
    table.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.text('actor').notNullable();
    table.text('action').notNullable();
    table.text('name').notNullable();
    table.text('version');
    table.text('integrity');
    /** `ok`, or the error code that refused it. */
    table.text('outcome').notNullable();
    table.text('message');
    table.index(['at']);
  });
  // Installing a package puts third-party code on the host: the seeded admin role only.
  if (await knex('roles').where({ name: 'admin' }).first()) await knex('role_permissions').insert({ role: 'admin', permission: 'channel:install' }).onConflict().ignore();
}

export async function down(knex: Knex): Promise<void> {
  await knex('role_permissions').where({ permission: 'channel:install' }).delete();
  await knex.schema.dropTable('channel_package_audit');
  await knex.schema.dropTable('channel_packages');
}
