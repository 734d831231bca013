import type { Workflow } from '../../api/api-types.ts';
import { DeleteButton } from '../../components/delete-button.tsx';

/** Deletes a workflow with all its versions, after a confirmation. */
export function DeleteWorkflowButton({ workflow, onDeleted }: { workflow: Workflow; onDeleted?: () => void }) {
  return (
    <DeleteButton path={`/api/workflows/${workflow.id}`} permission="workflow:delete" after="/workflows" onDeleted={onDeleted} title={`Delete "${workflow.name}"?`}>
      <p>
        This deletes its {workflow.currentVersion} version{workflow.currentVersion === 1 ? '' : 's'}. Sources that name it as their default
        workflow no longer run it.
      </p>
    </DeleteButton>
  );
}
