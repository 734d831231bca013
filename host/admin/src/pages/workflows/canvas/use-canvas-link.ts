import { useCallback, useEffect, useRef, useState } from 'react';
import type { TextRange } from './step-sources.ts';

// Reading the text's nodes takes the `yaml` parser, loaded with the flow view rather than the page.
const loadSources = () => import('./step-sources.ts');

/** The cursor settles this long before its step is looked up: typing moves it on every key. */
const CURSOR_SETTLE_MS = 120;

/**
 * Links the flow and the text both ways: `onSelect` (a step clicked on the flow) selects the
 * step's task def in the editor through `reveal`; `onCursor` (the author's cursor in the editor)
 * highlights the step whose def or flow item it is in, through `selected`.
 *
 * @example
 * const link = useCanvasLink(yaml);
 * <YamlEditor … onCursor={link.onCursor} reveal={link.reveal} />
 * <FlowView … selected={link.selected} onSelect={link.onSelect} />
 */
export function useCanvasLink(yaml: string) {
  const [selected, setSelected] = useState<number>();
  // Asked for by a click; answered once the text it was asked on is rendered (an added step's).
  const [revealAsked, setRevealAsked] = useState<{ position: number }>();
  const [reveal, setReveal] = useState<TextRange>();
  const latestYaml = useRef(yaml);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    latestYaml.current = yaml;
  }, [yaml]);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (!revealAsked) return;
    let live = true;
    void loadSources().then(({ stepSelection }) => {
      const range = live ? stepSelection(latestYaml.current, revealAsked.position) : undefined;
      if (range) setReveal({ ...range });
    });
    return () => {
      live = false;
    };
  }, [revealAsked]);

  const onSelect = useCallback((position: number | undefined) => {
    clearTimeout(timer.current);
    setSelected(position);
    if (position !== undefined) setRevealAsked({ position });
  }, []);

  const onCursor = useCallback((offset: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void loadSources().then(({ stepAtOffset }) => setSelected(stepAtOffset(latestYaml.current, offset))), CURSOR_SETTLE_MS);
  }, []);

  return { selected, onSelect, reveal, onCursor };
}
