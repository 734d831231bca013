import { useParams, useSearchParams } from 'react-router';
import { withQuery } from '../../api/api-client.ts';
import type { Workflow } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { LoadState } from '../../components/load-state.tsx';
import { WorkflowEditor } from './workflow-editor.tsx';

/** A new workflow (`/workflows/new`), or one workflow at its current or a chosen version. */
export function WorkflowEditorPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const isNew = !id || id === 'new';
  const version = params.get('version') ?? undefined;
  const state = useApiData<Workflow>(isNew ? null : withQuery(`/api/workflows/${id}`, { version }));
  if (isNew) return <WorkflowEditor />;
  return <LoadState state={state}>{(workflow) => <WorkflowEditor key={`${workflow.id}@${workflow.version}`} workflow={workflow} onSaved={state.reload} />}</LoadState>;
}
