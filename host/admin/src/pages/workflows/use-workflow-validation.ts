import { useEffect, useState } from 'react';
import { api } from '../../api/api-client.ts';
import type { WorkflowProblem } from '../../api/api-types.ts';

/** Problems of the YAML being typed, checked by the server 500 ms after the last change. */
export function useWorkflowValidation(yaml: string, enabled: boolean): WorkflowProblem[] | undefined {
  const [result, setResult] = useState<{ yaml: string; problems: WorkflowProblem[] }>();
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    const timer = setTimeout(() => {
      api.post<{ valid: boolean; problems: WorkflowProblem[] }>('/api/workflows/validate', { yaml }).then(
        (answer) => current && setResult({ yaml, problems: answer.problems }),
        () => current && setResult(undefined),
      );
    }, 500);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [yaml, enabled]);
  return result?.yaml === yaml ? result.problems : undefined;
}
