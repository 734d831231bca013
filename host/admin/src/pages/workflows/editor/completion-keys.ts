import { acceptCompletion, completionStatus, currentCompletions, selectedCompletionIndex, setSelectedCompletion } from '@codemirror/autocomplete';
import type { Command } from '@codemirror/view';

/**
 * Tab with the completion list open takes the item the arrow keys picked, or else the first one;
 * with no list open (or within the list's short interaction delay) it does nothing here, and
 * indents. Enter is left to `acceptCompletion`, which takes only a picked item: the list opens
 * with nothing selected (`selectOnOpen: false`), so Enter on a list the author never touched
 * starts a new line.
 */
export const acceptCompletionOnTab: Command = (view) => {
  if (view.state.readOnly || completionStatus(view.state) !== 'active' || currentCompletions(view.state).length === 0) return false;
  if (selectedCompletionIndex(view.state) !== null) return acceptCompletion(view);
  view.dispatch({ effects: setSelectedCompletion(0) });
  if (acceptCompletion(view)) return true;
  // Too soon after the list opened: leave it unpicked, as it was.
  view.dispatch({ effects: setSelectedCompletion(-1) });
  return false;
};
