import type { DraftStorage, WorkflowDraft } from './draft-storage.ts';

const DRAFT_PREFIX = 'bot.workflow-draft.';

/**
 * A draft in this browser's localStorage: for a workflow not yet saved, which has no id on the
 * host to keep a draft under (and no workflow for the draft to be deleted with).
 */
export function localDraftStorage(key: string): DraftStorage {
  const item = DRAFT_PREFIX + key;
  return {
    read: async () => {
      try {
        const draft = JSON.parse(localStorage.getItem(item) ?? 'null') as Partial<WorkflowDraft> | null;
        return isDraft(draft) ? draft : undefined;
      } catch {
        return undefined;
      }
    },
    write: async ({ name, yaml }) => {
      try {
        localStorage.setItem(item, JSON.stringify({ name, yaml, savedAt: new Date().toISOString() } satisfies WorkflowDraft));
      } catch {
        // Storage full or unavailable: the editor still works, without a draft.
      }
    },
    remove: async () => {
      try {
        localStorage.removeItem(item);
      } catch {
        // Storage unavailable: there is no draft to remove.
      }
    },
  };
}

function isDraft(draft: Partial<WorkflowDraft> | null): draft is WorkflowDraft {
  return !!draft && typeof draft.name === 'string' && typeof draft.yaml === 'string' && typeof draft.savedAt === 'string';
}
