import { z } from 'zod';
import { listQuerySchema, MAX_PAGE_SIZE, pageSchema } from '../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import { workflowProblemSchema } from './document/workflow-problem.ts';
import { workflowSummarySchema, workflowVersionSummarySchema, workflowViewSchema } from './storage/workflow.ts';
import { WORKFLOW_SORTS, type WorkflowStore } from './storage/workflow-store.ts';

const BASE = '/api/workflows';
const TAG = 'workflows';

const name = z.string().trim().min(1).max(200).describe('Unique label (case-insensitive), 1-200 characters');
/**
 * Workflow YAML as a save takes it: no bound of its own beyond the request body's
 * (BOT_HTTP_MAX_BODY_BYTES, 413 past it), which every JSON route shares.
 */
export const workflowYaml = z.string().describe('The workflow document (see schemas/workflow.schema.json); kept exactly as sent');
const yaml = workflowYaml;
const createBody = z.object({ name, yaml }).strict();
const updateBody = z.object({ name: name.optional(), yaml }).strict();
const validateBody = z.object({ yaml }).strict();
const idParams = z.object({ id: z.string().describe('Workflow id (a uuid; anything else is not found)') });
/** Versions are a PostgreSQL `integer`: a larger number names no version (and must not reach the query). */
export const MAX_WORKFLOW_VERSION = 2_147_483_647;
const versionQuery = z.object({
  version: z.coerce.number().int().min(1).max(MAX_WORKFLOW_VERSION).optional().describe('A version number; default the current version'),
});
const pagingQuery = listQuerySchema(['version'], '-version').pick({ limit: true, offset: true });
const validation = z.object({
  valid: z.boolean(),
  problems: z.array(workflowProblemSchema).describe('Every problem, in the order of the text; empty when valid'),
});

/** The admin API for workflows: each save validates fully and adds a version. */
export function workflowRoutes({ workflows }: { workflows: WorkflowStore }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET', path: BASE, operationId: 'listWorkflows', summary: 'List workflows (current versions), searching the name',
      tag: TAG, permission: 'workflow:read', query: listQuerySchema(WORKFLOW_SORTS, 'name'),
      success: { status: 200, description: 'One page and the total', schema: pageSchema(workflowSummarySchema) },
      handle: ({ query }) => workflows.list(query),
    }),
    defineRoute({
      method: 'POST', path: BASE, operationId: 'createWorkflow', summary: 'Validate and save a new workflow as version 1',
      tag: TAG, permission: 'workflow:create', body: createBody, errors: [409],
      success: { status: 201, description: 'The saved workflow', schema: workflowViewSchema },
      handle: ({ body, principal }) => workflows.create(body, principal?.sub),
    }),
    // Registered before `/:id` routes, which would otherwise take "validate" for an id.
    defineRoute({
      method: 'POST', path: `${BASE}/validate`, operationId: 'validateWorkflow',
      summary: 'Check workflow YAML as a save would, without saving; problems are an answer here, not an error',
      tag: TAG, permission: 'workflow:read', body: validateBody,
      success: { status: 200, description: 'Whether it is valid, and every problem', schema: validation },
      handle: ({ body }) => workflows.validate(body.yaml),
    }),
    defineRoute({
      method: 'GET', path: `${BASE}/:id`, operationId: 'getWorkflow', summary: 'Read a workflow: its current version, or ?version=n',
      tag: TAG, permission: 'workflow:read', params: idParams, query: versionQuery, errors: [404],
      success: { status: 200, description: 'The workflow at that version', schema: workflowViewSchema },
      handle: ({ params, query }) => workflows.get(params.id, query.version),
    }),
    defineRoute({
      method: 'PUT', path: `${BASE}/:id`, operationId: 'updateWorkflow', summary: 'Validate and save the next version (and rename, when a name is given)',
      tag: TAG, permission: 'workflow:update', params: idParams, body: updateBody, errors: [404, 409],
      success: { status: 200, description: 'The workflow at its new version', schema: workflowViewSchema },
      handle: ({ params, body, principal }) => workflows.update(params.id, body, principal?.sub),
    }),
    defineRoute({
      method: 'DELETE', path: `${BASE}/:id`, operationId: 'deleteWorkflow', summary: 'Delete a workflow and all its versions',
      tag: TAG, permission: 'workflow:delete', params: idParams, errors: [404],
      success: { status: 204, description: 'Deleted, with its versions' },
      handle: ({ params }) => workflows.delete(params.id),
    }),
    defineRoute({
      method: 'GET', path: `${BASE}/:id/versions`, operationId: 'listWorkflowVersions', summary: 'List the versions of a workflow, newest first',
      tag: TAG, permission: 'workflow:read', params: idParams, query: pagingQuery, errors: [404],
      success: { status: 200, description: `One page (at most ${MAX_PAGE_SIZE}) and the total`, schema: pageSchema(workflowVersionSummarySchema) },
      handle: ({ params, query }) => workflows.listVersions(params.id, query),
    }),
  ];
}
