import { useCallback, useEffect, useRef, useState } from 'react';

/** Drafts live in this browser only, one per workflow (`new` for a workflow not yet saved). */
const DRAFT_PREFIX = 'bot.workflow-draft.';
const AUTOSAVE_DELAY_MS = 400;

export interface WorkflowDraft {
  name: string;
  yaml: string;
  /** When it was written (ISO 8601). */
  savedAt: string;
}

function readDraft(key: string): WorkflowDraft | undefined {
  try {
    const draft = JSON.parse(localStorage.getItem(DRAFT_PREFIX + key) ?? 'null') as Partial<WorkflowDraft> | null;
    return draft && typeof draft.name === 'string' && typeof draft.yaml === 'string' && typeof draft.savedAt === 'string' ? (draft as WorkflowDraft) : undefined;
  } catch {
    return undefined;
  }
}

function removeDraft(key: string): void {
  try {
    localStorage.removeItem(DRAFT_PREFIX + key);
  } catch {
    // Storage unavailable: there is no draft to remove.
  }
}

/**
 * Keeps the unsaved edits of one workflow as a local draft (localStorage), written shortly after
 * typing stops while `dirty`, and dropped when the edits are undone, saved (`clear`) or discarded.
 * A draft found on opening that differs from `loaded` is `offered` until restored or discarded.
 */
export function useWorkflowDraft(key: string, loaded: { name: string; yaml: string }, current: { name: string; yaml: string }, dirty: boolean) {
  const [offered, setOffered] = useState(() => {
    const draft = readDraft(key);
    return draft && (draft.name !== loaded.name || draft.yaml !== loaded.yaml) ? draft : undefined;
  });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const cleared = useRef(false);

  const { name, yaml } = current;
  useEffect(() => {
    if (!dirty) {
      // Back at the saved text: no draft to keep (unless one is still being offered).
      if (!offered) removeDraft(key);
      return;
    }
    cleared.current = false;
    timer.current = setTimeout(() => {
      if (cleared.current) return;
      try {
        localStorage.setItem(DRAFT_PREFIX + key, JSON.stringify({ name, yaml, savedAt: new Date().toISOString() } satisfies WorkflowDraft));
      } catch {
        // Storage full or unavailable: the editor still works, without a draft.
      }
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [key, name, yaml, dirty, offered]);

  /** Forgets the draft: after a save or a delete. */
  const clear = useCallback(() => {
    cleared.current = true;
    clearTimeout(timer.current);
    removeDraft(key);
    setOffered(undefined);
  }, [key]);

  const discard = useCallback(() => {
    removeDraft(key);
    setOffered(undefined);
  }, [key]);

  /** Stops offering the draft; the caller puts its text into the editor. */
  const restored = useCallback(() => setOffered(undefined), []);

  return { offered, restored, discard, clear };
}
