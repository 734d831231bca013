import type { Knex } from 'knex';
import { isUuid } from '../../db/fetch-sorted-page.ts';
import { AppError } from '../../errors/app-error.ts';

/** One author's unsaved edits of one workflow, as the editor last autosaved them. */
export interface WorkflowDraft {
  name: string;
  yaml: string;
  /** When it was written (ISO 8601). */
  savedAt: string;
}

interface DraftRow {
  name: string;
  yaml: string;
  saved_at: Date;
}

/**
 * Drafts per workflow and author (`workflow_drafts`). The author is always the caller's token
 * subject, given by the route, so one author never reads or overwrites another's draft. Saving
 * the workflow drops its saver's draft and deleting it drops them all (see the migration).
 */
export class WorkflowDraftStore {
  readonly #db: Knex;
  readonly #now: () => Date;

  constructor(db: Knex, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  /** The author's draft, or null; BOT_ERR_WORKFLOW_NOT_FOUND when the workflow does not exist. */
  async get(workflowId: string, author: string): Promise<WorkflowDraft | null> {
    await this.#existingOrThrow(workflowId);
    const row: DraftRow | undefined = await this.#db('workflow_drafts').where({ workflow_id: workflowId, author }).first('name', 'yaml', 'saved_at');
    return row ? toDraft(row) : null;
  }

  /** Writes the author's draft over the last one; BOT_ERR_WORKFLOW_NOT_FOUND when the workflow does not exist. */
  async put(workflowId: string, author: string, draft: { name: string; yaml: string }): Promise<WorkflowDraft> {
    if (!isUuid(workflowId)) throw notFound(workflowId);
    // One statement: the draft is written only when the workflow exists, with no gap for a delete.
    const { rows } = await this.#db.raw<{ rows: DraftRow[] }>(
      `INSERT INTO workflow_drafts (workflow_id, author, name, yaml, saved_at)
       SELECT id, ?, ?, ?, ? FROM workflows WHERE id = ?
       ON CONFLICT (workflow_id, author) DO UPDATE SET name = EXCLUDED.name, yaml = EXCLUDED.yaml, saved_at = EXCLUDED.saved_at
       RETURNING name, yaml, saved_at`,
      [author, draft.name, draft.yaml, this.#now(), workflowId],
    );
    if (!rows[0]) throw notFound(workflowId);
    return toDraft(rows[0]);
  }

  /** Drops the author's draft, if any; BOT_ERR_WORKFLOW_NOT_FOUND when the workflow does not exist. */
  async delete(workflowId: string, author: string): Promise<void> {
    await this.#existingOrThrow(workflowId);
    await this.#db('workflow_drafts').where({ workflow_id: workflowId, author }).delete();
  }

  async #existingOrThrow(workflowId: string): Promise<void> {
    const found = isUuid(workflowId) && (await this.#db('workflows').where({ id: workflowId }).first('id'));
    if (!found) throw notFound(workflowId);
  }
}

function toDraft(row: DraftRow): WorkflowDraft {
  return { name: row.name, yaml: row.yaml, savedAt: row.saved_at.toISOString() };
}

function notFound(id: string): AppError {
  return new AppError('BOT_ERR_WORKFLOW_NOT_FOUND', `No workflow has the id "${id}"`, { id });
}
