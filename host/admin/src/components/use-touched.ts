import { useCallback, useMemo, useState } from 'react';

/**
 * Which fields of a form have been left (blurred) and whether a save was tried, so a field's
 * validation message waits until then instead of showing on a form nothing was typed into.
 * @example
 * const touched = useTouched();
 * <input onBlur={touched.blur('slug')} />
 * {touched.shows('slug') && <FieldError message={problem} />}
 */
export function useTouched<Field extends string>() {
  const [left, setLeft] = useState<ReadonlySet<Field>>(new Set());
  const [saveTried, setSaveTried] = useState(false);
  const blur = useCallback((field: Field) => () => setLeft((fields) => (fields.has(field) ? fields : new Set(fields).add(field))), []);
  const trySave = useCallback(() => setSaveTried(true), []);
  return useMemo(() => ({ blur, trySave, shows: (field: Field) => saveTried || left.has(field) }), [blur, trySave, saveTried, left]);
}
