import type { Context } from 'koa';
import { z } from 'zod';
import { xEgressOrigins } from '../egress/x-egress-origins.ts';
import { listQuerySchema, pageSchema } from '../http/list-query.ts';
import { requestOrigin } from '../http/request-origin.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import { maskSecrets, secretKeys } from './secret-settings.ts';
import { sourceLinks } from './source-links.ts';
import { sourceViewSchema, type SourceChannels, type SourceRow, type SourceView } from './source.ts';
import { SOURCE_SORTS, type SourceStore } from './source-store.ts';

const BASE = '/api/sources';
const TAG = 'sources';

const fields = {
  name: z.string().trim().min(1).max(200).describe('Unique label'),
  settings: z.record(z.string(), z.unknown()).describe("Checked against the channel's settings JSON Schema"),
  active: z.boolean().describe('Inactive sources accept webhooks but run no workflow'),
  defaultWorkflowId: z.string().min(1).nullable().describe('Workflow run for events whose URL names none'),
};
const createBody = z.object({ ...fields, channel: z.string().min(1).describe('A registered channel name') }).partial({ settings: true, active: true, defaultWorkflowId: true }).strict();
const patchBody = z
  .object({
    ...fields,
    settings: z
      .record(z.string(), z.unknown())
      .describe("Merged key by key over the stored settings (null returns a key to its default), then checked against the channel's settings JSON Schema"),
  })
  .partial()
  .strict();
const idParams = z.object({ id: z.string().describe('Source id') });

export interface SourceRouteDeps {
  sources: SourceStore;
  channels: SourceChannels;
  /** Base URL platforms reach the host at; default: the request's own origin. */
  publicUrl: string | undefined;
}

/** The admin API for sources: secrets are masked in every response. */
export function sourceRoutes(deps: SourceRouteDeps): RouteDefinition[] {
  const secretKeysOf = (channel: string): string[] => {
    const schema = deps.channels.settingsSchemaOf(channel);
    // Channel gone: nothing says which settings are secret, so none is shown.
    return schema ? secretKeys(schema) : ['*'];
  };
  const view = (row: SourceRow, ctx: Context): SourceView => ({
    ...toView(row, secretKeysOf(row.channel)),
    ...sourceLinks(row, deps.channels.get(row.channel)?.description.kind, deps.publicUrl ?? requestOrigin(ctx)),
    // What the operator granted, shown where it is granted: a channel gone grants nothing.
    egressOrigins: xEgressOrigins(deps.channels.settingsSchemaOf(row.channel), row.settings, row.egress_grants),
  });
  return [
    defineRoute({
      method: 'GET', path: BASE, operationId: 'listSources', summary: 'List sources', tag: TAG, permission: 'source:read',
      query: listQuerySchema(SOURCE_SORTS, 'name'),
      success: { status: 200, description: 'One page and the total', schema: pageSchema(sourceViewSchema) },
      async handle({ query, ctx }) {
        const page = await deps.sources.list(query);
        return { items: page.items.map((row) => view(row, ctx)), total: page.total };
      },
    }),
    defineRoute({
      method: 'POST', path: BASE, operationId: 'createSource', summary: 'Create a source of a registered channel', tag: TAG,
      permission: 'source:create', body: createBody, errors: [409],
      success: { status: 201, description: 'The created source', schema: sourceViewSchema },
      handle: async ({ body, ctx }) => view(await deps.sources.create(body), ctx),
    }),
    defineRoute({
      method: 'GET', path: `${BASE}/:id`, operationId: 'getSource', summary: 'Read a source', tag: TAG, permission: 'source:read',
      params: idParams, errors: [404],
      success: { status: 200, description: 'The source', schema: sourceViewSchema },
      handle: async ({ params, ctx }) => view(await deps.sources.get(params.id), ctx),
    }),
    defineRoute({
      method: 'PATCH', path: `${BASE}/:id`, operationId: 'updateSource', summary: 'Change a source; settings merge key by key, masked or absent secrets keep their value',
      tag: TAG, permission: 'source:update', params: idParams, body: patchBody, errors: [404, 409],
      success: { status: 200, description: 'The changed source', schema: sourceViewSchema },
      handle: async ({ params, body, ctx }) => view(await deps.sources.update(params.id, body, secretKeysOf), ctx),
    }),
    defineRoute({
      method: 'DELETE', path: `${BASE}/:id`, operationId: 'deleteSource', summary: 'Delete a source', tag: TAG,
      permission: 'source:delete', params: idParams, errors: [404],
      success: { status: 204, description: 'Deleted' },
      handle: ({ params }) => deps.sources.delete(params.id),
    }),
  ];
}

function toView(row: SourceRow, keys: string[]): Omit<SourceView, 'webhookUrl' | 'chatUrl' | 'egressOrigins'> {
  const masked = keys.includes('*') ? maskSecrets(row.settings, Object.keys(row.settings)) : maskSecrets(row.settings, keys);
  return {
    id: row.id,
    ref: row.ref,
    name: row.name,
    channel: row.channel,
    settings: masked,
    active: row.active,
    defaultWorkflowId: row.default_workflow_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
