import type { Knex } from 'knex';
import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../../http/route-definition.ts';
import { workflowYaml } from '../workflows.routes.ts';
import { WorkflowDraftStore } from './workflow-draft-store.ts';

const PATH = '/api/workflows/:id/draft';
const TAG = 'workflows';

const idParams = z.object({ id: z.string().describe('Workflow id (a uuid; anything else is not found)') });
/**
 * A draft is what the author had typed, so it is kept unvalidated: an empty or clashing name and
 * broken YAML are drafts too. Its bounds are a save's: the name's length and the request body's.
 */
const draftBody = z
  .object({
    name: z.string().max(200).describe('The name as typed, up to 200 characters (not checked)'),
    yaml: workflowYaml.describe('The YAML as typed (not validated); kept exactly as sent'),
  })
  .strict();
const draftSchema = z.object({ name: z.string(), yaml: z.string(), savedAt: z.string().describe('When it was written (ISO 8601)') });

/**
 * The caller's draft of a workflow: autosaved by the editor, offered back on return. The author is
 * the caller's token subject, never a value from the body; a save of the workflow by that author
 * drops it, and deleting the workflow drops every draft of it.
 */
export function workflowDraftRoutes({ db }: { db: Knex }): RouteDefinition[] {
  const drafts = new WorkflowDraftStore(db);
  return [
    defineRoute({
      method: 'GET', path: PATH, operationId: 'getWorkflowDraft', summary: "Read the caller's unsaved draft of a workflow (null when there is none)",
      tag: TAG, permission: 'workflow:update', params: idParams, errors: [404],
      success: { status: 200, description: 'The draft, or null', schema: z.object({ draft: draftSchema.nullable() }) },
      handle: async ({ params, principal }) => ({ draft: await drafts.get(params.id, principal!.sub) }),
    }),
    defineRoute({
      method: 'PUT', path: PATH, operationId: 'putWorkflowDraft', summary: "Write the caller's draft of a workflow over the last one, without validating it",
      tag: TAG, permission: 'workflow:update', params: idParams, body: draftBody, errors: [404],
      success: { status: 200, description: 'The draft as stored', schema: draftSchema },
      handle: ({ params, body, principal }) => drafts.put(params.id, principal!.sub, body),
    }),
    defineRoute({
      method: 'DELETE', path: PATH, operationId: 'deleteWorkflowDraft', summary: "Drop the caller's draft of a workflow (done when there is none)",
      tag: TAG, permission: 'workflow:update', params: idParams, errors: [404],
      success: { status: 204, description: 'No draft is left' },
      handle: ({ params, principal }) => drafts.delete(params.id, principal!.sub),
    }),
  ];
}
