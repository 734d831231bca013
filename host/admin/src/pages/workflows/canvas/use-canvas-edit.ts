import { useState } from 'react';

/**
 * Applies canvas edits to the YAML: `apply(change)` hands the change to `onEdit`, which applies
 * it to the editor's latest text; an edit that cannot be made (the YAML does not parse) leaves
 * the text alone and is explained in `problem` until the next edit.
 */
export function useCanvasEdit(onEdit: ((change: (yaml: string) => string) => void) | undefined) {
  const [problem, setProblem] = useState<string>();
  const apply = (change: (text: string) => string): boolean => {
    if (!onEdit) return false;
    try {
      onEdit(change);
      setProblem(undefined);
      return true;
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : String(failure));
      return false;
    }
  };
  return { apply, problem };
}
