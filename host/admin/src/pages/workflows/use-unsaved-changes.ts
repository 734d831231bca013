import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

export const UNSAVED_CHANGES_MESSAGE = 'This workflow has unsaved changes. Leave without saving them?';

/**
 * While `dirty`, leaving asks first: a navigation inside the panel (a menu link, Back) waits
 * for a confirm, and closing or reloading the tab gets the browser's own prompt
 * (`beforeunload`). Returns `release`, called right before a navigation that must not ask (the
 * one after a save or a delete): it takes effect at once, before `dirty` catches up.
 */
export function useUnsavedChanges(dirty: boolean, message = UNSAVED_CHANGES_MESSAGE): () => void {
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  // The same page at the same query (e.g. the URL tidied after a save) is not leaving it.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyRef.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (!dirtyRef.current || window.confirm(message)) setTimeout(blocker.proceed, 0);
    else blocker.reset();
  }, [blocker, message]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return useCallback(() => {
    dirtyRef.current = false;
  }, []);
}

/** Calls `run` on Ctrl-S (Cmd-S on a Mac) anywhere on the page, instead of the browser's "Save page as". */
export function useSaveShortcut(run: () => void): void {
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  }, [run]);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 's') return;
      event.preventDefault();
      if (!event.repeat) latest.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
