import type { RJSFValidationError } from '@rjsf/utils';
import { useMemo, useRef } from 'react';

/**
 * Keeps rjsf's live validation quiet until a field has been left (blurred) or the form submitted:
 * the errors of fields not yet touched are dropped. Refs, not state: rjsf validates in the same
 * event as the blur or the submit, before a re-render.
 * @example const touched = useTouchedErrors(); <Form liveValidate="onBlur" onBlur={touched.onBlur} transformErrors={touched.transformErrors} />
 */
export function useTouchedErrors() {
  const touched = useRef(new Set<string>());
  const submitted = useRef(false);
  return useMemo(
    () => ({
      onBlur: (id: string) => void touched.current.add(id),
      onSubmitCapture: () => void (submitted.current = true),
      transformErrors: (errors: RJSFValidationError[]) =>
        submitted.current ? errors : errors.filter((error) => touched.current.has(idOf(error.property))),
    }),
    [],
  );
}

/** rjsf's field id for an error's property path: `.api_url` → `root_api_url`. */
function idOf(property: string | undefined): string {
  return `root${(property ?? '').replace(/\./g, '_')}`;
}
