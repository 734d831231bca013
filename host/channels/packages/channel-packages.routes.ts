import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../../http/route-definition.ts';
import { auditSchema, CHANNEL_PACKAGES_TAG as TAG, installBody, listSchema, outcomeSchema, previewSchema } from './channel-package.schema.ts';
import type { ChannelPackageService } from './channel-package-service.ts';
import { outcomeView, previewView } from './channel-package-views.ts';

/** The channel packages the host installs itself (BOT_CHANNEL_INSTALL): list, audit, preview, install or upgrade, remove. */
export function channelPackageRoutes({ packages }: { packages: ChannelPackageService }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/channel/packages',
      operationId: 'listChannelPackages',
      summary: 'The channel packages the host installed, on every instance',
      tag: TAG,
      permission: 'channel:read',
      success: { status: 200, description: 'The installed set', schema: listSchema },
      async handle() {
        const items = await packages.list();
        return { items, total: items.length, policy: packages.policy, declarative: packages.declarative, failures: packages.failures() };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/channel/packages/audit',
      operationId: 'channelPackageAudit',
      summary: 'Every install, upgrade and removal, refused ones included, newest first',
      tag: TAG,
      permission: 'channel:read',
      success: { status: 200, description: 'The latest 100', schema: auditSchema },
      async handle() {
        return { items: await packages.audit() };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/channel/packages/preview',
      operationId: 'previewChannelPackage',
      summary: 'Fetch and check a package without installing it: its manifest, integrity and trust',
      tag: TAG,
      permission: 'channel:install',
      body: installBody,
      success: { status: 200, description: 'What would be installed', schema: previewSchema },
      errors: [403, 404, 422, 502],
      async handle({ body, principal }) {
        return previewView(await packages.preview({ ...body, actor: principal!.sub }));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/channel/packages',
      operationId: 'installChannelPackage',
      summary: 'Install or upgrade a channel package from the registry, on every instance, without running any of its scripts',
      tag: TAG,
      permission: 'channel:install',
      body: installBody,
      success: { status: 200, description: 'Installed; its channel as discovery found it here', schema: outcomeSchema },
      errors: [403, 404, 422, 502],
      async handle({ body, principal }) {
        return outcomeView(await packages.install({ ...body, actor: principal!.sub }));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/channel/packages/:name/rollback',
      operationId: 'rollbackChannelPackage',
      summary: 'Return a channel package to the version it replaced, on every instance; its channel moves back through the usual drain',
      tag: TAG,
      permission: 'channel:install',
      params: z.object({ name: z.string().min(1) }),
      success: { status: 200, description: 'Rolled back; its channel as discovery found it here', schema: outcomeSchema },
      errors: [404, 409],
      async handle({ params, principal }) {
        return outcomeView(await packages.rollback(params.name, principal!.sub));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/channel/packages/:name',
      operationId: 'removeChannelPackage',
      summary: 'Remove a channel package the host installed, on every instance',
      tag: TAG,
      permission: 'channel:install',
      params: z.object({ name: z.string().min(1) }),
      success: { status: 204, description: 'Removed; its channel stops after draining' },
      errors: [404],
      async handle({ params, principal }) {
        await packages.remove(params.name, principal!.sub);
      },
    }),
  ];
}
