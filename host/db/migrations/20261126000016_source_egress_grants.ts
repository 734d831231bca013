import type { Knex } from 'knex';

/**
 * `sources.egress_grants`: the settings an operator granted egress with, as a JSON array of keys
 * (each marked `x-egress` in the channel's schema when the operator saved its value). A setting
 * counts as an endpoint only when its key is listed and the schema still marks it, so a value
 * stored while the setting was plain (a default, a URL typed for another purpose) grants nothing
 * when a plugin marks it later. NULL, which every existing row gets: every setting the schema
 * marks counts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE sources ADD COLUMN egress_grants jsonb');
  await knex.raw(`ALTER TABLE sources ADD CONSTRAINT sources_egress_grants_array
    CHECK (egress_grants IS NULL OR jsonb_typeof(egress_grants) = 'array')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE sources DROP COLUMN egress_grants');
}
