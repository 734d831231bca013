import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../../http/route-definition.ts';
import type { ChannelPackageService, InstallOutcome } from './channel-package-service.ts';

const TAG = 'channel packages';

const manifestSchema = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string().nullable(),
  peerDependencies: z.record(z.string(), z.string()),
  dependencies: z.record(z.string(), z.string()),
  bundleDependencies: z.array(z.string()),
  egress: z.array(z.string()).describe('The hosts the package declares it sends to (`bot.egress`)'),
  engines: z.record(z.string(), z.string()),
  hasInstallScripts: z.boolean().describe('Whether npm would run code of it at install; the host never does'),
});

const trustSchema = z
  .enum(['verified', 'unsigned', 'pinned', 'unverified'])
  .describe('`verified`: the registry signature holds; `unsigned`: the registry publishes no signature for it; `pinned`: an upload matching the integrity given; `unverified`: an upload without one');

const packageSchema = z.object({
  name: z.string(),
  version: z.string(),
  integrity: z.string().describe('sha512 of the tarball (SRI)'),
  trust: trustSchema,
  manifest: manifestSchema,
  installedBy: z.string(),
  installedAt: z.string(),
  previousVersion: z.string().nullable().describe('The version a rollback returns to; null when it replaced none'),
});

const failureSchema = z.object({ name: z.string(), version: z.string(), code: z.string(), message: z.string() });

const listSchema = z.object({
  items: z.array(packageSchema),
  total: z.number().int(),
  policy: z.enum(['off', 'registry', 'any']).describe('BOT_CHANNEL_INSTALL'),
  declarative: z.boolean().describe('The set is declared in BOT_CHANNELS_FILE: it changes with the file, not through this API'),
  failures: z.array(failureSchema).describe('What this instance could not apply of the installed set; it serves what it had'),
});

const installBody = z.object({
  spec: z.string().min(1).max(214 + 64).describe('`bot-channel-x`, `bot-channel-x@1.2.0` or a range'),
  integrity: z
    .string()
    .regex(/^sha512-[A-Za-z0-9+/]{86}==$/, 'must be a sha512 SRI string')
    .optional()
    .describe('Pin: the tarball must have this sha512 (as npm writes it in package-lock.json)'),
});

const previewSchema = z.object({
  name: z.string(),
  version: z.string(),
  integrity: z.string(),
  trust: trustSchema,
  publishedAt: z.string().nullable(),
  manifest: manifestSchema,
});

const outcomeSchema = z.object({
  package: packageSchema,
  channel: z
    .object({
      status: z.enum(['registered', 'disabled', 'rejected', 'missing']),
      name: z.string().nullable(),
      code: z.string().nullable(),
      message: z.string().nullable(),
    })
    .describe("What discovery made of the package's channel on this instance"),
});

const auditSchema = z.object({
  items: z.array(
    z.object({
      at: z.string(),
      actor: z.string(),
      action: z.enum(['install', 'upgrade', 'rollback', 'remove']),
      name: z.string(),
      version: z.string().nullable(),
      integrity: z.string().nullable(),
      outcome: z.string().describe('`ok`, or the code that refused it'),
      message: z.string().nullable(),
    }),
  ),
});

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
        const fetched = await packages.preview({ ...body, actor: principal!.sub });
        const { name, version, integrity, trust, publishedAt, manifest } = fetched;
        return { name, version, integrity, trust, publishedAt: publishedAt ?? null, manifest: { ...manifest, description: manifest.description ?? null } };
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

function outcomeView(outcome: InstallOutcome): z.input<typeof outcomeSchema> {
  const { channel } = outcome;
  const manifest = { ...outcome.package.manifest, description: outcome.package.manifest.description ?? null };
  return { package: { ...outcome.package, manifest }, channel: { status: channel.status, name: channel.name ?? null, code: channel.code ?? null, message: channel.message ?? null } };
}
