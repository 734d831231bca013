import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DraftStorage, WorkflowDraft } from './drafts/draft-storage.ts';
import { localDraftStorage } from './drafts/local-draft-storage.ts';
import { serverDraftStorage } from './drafts/server-draft-storage.ts';

export type { WorkflowDraft } from './drafts/draft-storage.ts';

/** Written once typing pauses this long, and at least this often while it goes on. */
const AUTOSAVE_QUIET_MS = 400;
const AUTOSAVE_MAX_WAIT_MS = 2_000;

interface Text {
  name: string;
  yaml: string;
}

/**
 * Keeps the unsaved edits of one workflow as a draft: on the host per author for a saved workflow
 * (`key` its id), in this browser for a new one (`key` "new"). It is written while `dirty`, once
 * typing pauses (and every 2 s while it does not), and dropped when the edits are undone, saved
 * (`clear`) or discarded. A draft found on opening that differs from `loaded` is `offered` until
 * restored or discarded; nothing is autosaved before that check, so it cannot be overwritten
 * unseen. `enabled` false (a reader who cannot edit) keeps no draft.
 */
export function useWorkflowDraft(key: string, loaded: Text, current: Text, dirty: boolean, enabled = true) {
  const storage = useMemo<DraftStorage>(() => (key === 'new' ? localDraftStorage(key) : serverDraftStorage(key)), [key]);
  const [offered, setOffered] = useState<WorkflowDraft>();
  const [checked, setChecked] = useState(false);
  // Whether the storage may hold a draft of ours, so undoing the edits knows to remove it.
  const stored = useRef(false);
  const pending = useRef<{ text: Text; since: number }>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void storage.read().then((draft) => {
      if (!live) return;
      stored.current = !!draft;
      if (draft && (draft.name !== loaded.name || draft.yaml !== loaded.yaml)) setOffered(draft);
      setChecked(true);
    });
    return () => {
      live = false;
    };
    // Checked once per workflow: `loaded` is what the page opened with.
  }, [storage, enabled]);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const text = pending.current?.text;
    pending.current = undefined;
    if (text) void storage.write(text);
  }, [storage]);

  const { name, yaml } = current;
  useEffect(() => {
    if (!enabled || !checked) return;
    if (!dirty) {
      // Back at the saved text: no draft to keep (unless one is still being offered).
      pending.current = undefined;
      clearTimeout(timer.current);
      if (!offered && stored.current) void storage.remove();
      stored.current = !!offered;
      return;
    }
    const since = pending.current?.since ?? Date.now();
    pending.current = { text: { name, yaml }, since };
    stored.current = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, Math.min(AUTOSAVE_QUIET_MS, Math.max(0, since + AUTOSAVE_MAX_WAIT_MS - Date.now())));
  }, [storage, enabled, checked, name, yaml, dirty, offered, flush]);

  // Leaving the page within the quiet time still keeps the last keystrokes.
  useEffect(() => flush, [flush]);

  /** Forgets the draft: after a save or a delete. */
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = undefined;
    stored.current = false;
    void storage.remove();
    setOffered(undefined);
  }, [storage]);

  const discard = useCallback(() => {
    stored.current = false;
    void storage.remove();
    setOffered(undefined);
  }, [storage]);

  /** Stops offering the draft; the caller puts its text into the editor. */
  const restored = useCallback(() => setOffered(undefined), []);

  return { offered, restored, discard, clear };
}
