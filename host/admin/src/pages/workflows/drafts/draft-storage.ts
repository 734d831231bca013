/** Unsaved edits of one workflow, as last autosaved. */
export interface WorkflowDraft {
  name: string;
  yaml: string;
  /** When it was written (ISO 8601). */
  savedAt: string;
}

/**
 * Where a workflow's draft is kept: on the host for a saved workflow (per author, so it follows
 * them to another browser), in this browser for a workflow not yet saved. Failures are swallowed:
 * the editor works without a draft.
 */
export interface DraftStorage {
  read(): Promise<WorkflowDraft | undefined>;
  write(draft: { name: string; yaml: string }): Promise<void>;
  remove(): Promise<void>;
}
