import type { Page, WorkflowSummary } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';

/** Workflow names by id, to label runs (an id is shown while they load, or for a deleted one). */
export function useWorkflowNames(): Map<string, string> {
  const { data } = useApiData<Page<WorkflowSummary>>('/api/workflows?limit=200');
  return new Map(data?.items.map((workflow) => [workflow.id, workflow.name]) ?? []);
}
