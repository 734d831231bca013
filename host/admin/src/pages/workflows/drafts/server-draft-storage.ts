import { api } from '../../../api/api-client.ts';
import type { DraftStorage, WorkflowDraft } from './draft-storage.ts';

/**
 * The author's draft of a saved workflow, kept by the host (`/api/workflows/:id/draft`), so it is
 * offered back in any browser they sign in from. Writes and removals go out one at a time, in
 * order: an autosave still in flight can never land after the removal that follows a save.
 */
export function serverDraftStorage(workflowId: string): DraftStorage {
  const path = `/api/workflows/${encodeURIComponent(workflowId)}/draft`;
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = (request: () => Promise<unknown>) => {
    queue = queue.then(request).catch(() => {});
    return queue.then(() => {});
  };
  return {
    read: () => api.get<{ draft: WorkflowDraft | null }>(path).then((answer) => answer.draft ?? undefined, () => undefined),
    write: (draft) => inOrder(() => api.put(path, { name: draft.name, yaml: draft.yaml })),
    remove: () => inOrder(() => api.delete(path)),
  };
}
