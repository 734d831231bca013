import type { Knex } from 'knex';

/**
 * Unsaved edits of a workflow, one per workflow and author (the token subject), autosaved by the
 * editor while the author types and offered back when they return, in any browser. A draft is
 * not validated. It goes with its workflow (the foreign key cascades), and a save by its author
 * drops it: the trigger runs inside the save's transaction, whichever route saved the version,
 * so a saved edit is never offered back as a draft.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workflow_drafts', (table) => {
    table.uuid('workflow_id').notNullable().references('workflows.id').onDelete('CASCADE');
    table.text('author').notNullable();
    table.text('name').notNullable();
    table.text('yaml').notNullable();
    table.timestamp('saved_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.primary(['workflow_id', 'author'], { constraintName: 'workflow_drafts_pkey' });
  });
  await knex.raw(`
    CREATE FUNCTION workflow_drafts_drop_saved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM workflow_drafts WHERE workflow_id = NEW.workflow_id AND author = NEW.created_by;
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER workflow_drafts_drop_saved AFTER INSERT ON workflow_versions
    FOR EACH ROW EXECUTE FUNCTION workflow_drafts_drop_saved()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER workflow_drafts_drop_saved ON workflow_versions');
  await knex.raw('DROP FUNCTION workflow_drafts_drop_saved()');
  await knex.schema.dropTable('workflow_drafts');
}
