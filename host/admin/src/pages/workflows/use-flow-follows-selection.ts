import { useEffect, type RefObject } from 'react';

/** Room kept between the followed step and the column's edge. */
const MARGIN_PX = 24;

/**
 * Scrolls the flow's own column (never the page) so the step at position `selected` (the one the
 * editor's cursor is in) shows, when it is out of view: the flow follows the text. It waits a
 * frame, as the drawing may redraw for the same change.
 */
export function useFlowFollowsSelection(column: RefObject<HTMLElement | null>, selected: number | undefined): void {
  useEffect(() => {
    if (selected === undefined) return;
    const frame = requestAnimationFrame(() => {
      const box = column.current;
      const node = box?.querySelector(`[data-position="${selected}"]`);
      if (!box || !node) return;
      const view = box.getBoundingClientRect();
      const target = node.getBoundingClientRect();
      if (target.top < view.top) box.scrollTop -= view.top - target.top + MARGIN_PX;
      else if (target.bottom > view.bottom) box.scrollTop += target.bottom - view.bottom + MARGIN_PX;
    });
    return () => cancelAnimationFrame(frame);
  }, [column, selected]);
}
