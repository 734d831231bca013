import type { Knex } from 'knex';

/**
 * The channel packages the host installs itself: each version's tarball and its dependencies,
 * kept by its integrity (so an instance installs it without reaching the registry, and a rollback
 * has it at hand); the
 * installed set every instance converges to, with the version each package replaced; and the
 * audit list of every install, upgrade, rollback and removal.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('channel_package_versions', (table) => {
    table.text('name').notNullable();
    /** The tarball's sha512, as an SRI string (`sha512-…`). */
    table.text('integrity').notNullable();
    table.text('version').notNullable();
    table.binary('tarball').notNullable();
    /**
     * Its dependencies as the installing instance fetched them from the registry: a tarball of the
     * version folder's `node_modules` (no links), so every other instance installs the same bytes
     * without the registry. Null when it needs none beyond the host's peers and what it bundles.
     */
    table.binary('dependencies');
    /** That bundle's sha512 (SRI), checked before it is unpacked. */
    table.text('dependencies_integrity');
    /** How far the tarball is vouched for: verified (registry signature), unsigned, pinned, unverified. */
    table.text('trust').notNullable();
    /** The package.json summary shown before and after install (egress hosts, peers…). */
    table.jsonb('manifest').notNullable();
    table.timestamp('stored_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.primary(['name', 'integrity']);
  });
  await knex.schema.createTable('channel_packages', (table) => {
    table.text('name').primary();
    table.text('integrity').notNullable();
    /** The version this one replaced: what a rollback returns to. */
    table.text('previous_integrity');
    table.text('installed_by').notNullable();
    table.timestamp('installed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.foreign(['name', 'integrity']).references(['name', 'integrity']).inTable('channel_package_versions');
    table.foreign(['name', 'previous_integrity']).references(['name', 'integrity']).inTable('channel_package_versions');
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
  await knex.schema.dropTable('channel_package_versions');
}
