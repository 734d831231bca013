/** The shapes of the channel package API: what the routes take and answer. */
import { z } from 'zod';

/** The OpenAPI tag of every channel package route. */
export const CHANNEL_PACKAGES_TAG = 'channel packages';

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

export const listSchema = z.object({
  items: z.array(packageSchema),
  total: z.number().int(),
  policy: z.enum(['off', 'registry', 'any']).describe('BOT_CHANNEL_INSTALL'),
  declarative: z.boolean().describe('The set is declared in BOT_CHANNELS_FILE: it changes with the file, not through this API'),
  failures: z.array(failureSchema).describe('What this instance could not apply of the installed set; it serves what it had'),
});

const integrityPin = z
  .string()
  .regex(/^sha512-[A-Za-z0-9+/]{86}==$/, 'must be a sha512 SRI string')
  .optional()
  .describe('Pin: the tarball must have this sha512 (as npm writes it in package-lock.json)');

export const installBody = z.object({
  spec: z.string().min(1).max(214 + 64).describe('`bot-channel-x`, `bot-channel-x@1.2.0` or a range'),
  integrity: integrityPin,
});

/** An upload's pin travels in the query string, since the body is the tarball. */
export const uploadQuery = z.object({
  integrity: integrityPin.describe('Pin: the tarball must have this sha512, URL-encoded (a bare `+` would read as a space)'),
});

export const previewSchema = z.object({
  name: z.string(),
  version: z.string(),
  integrity: z.string(),
  trust: trustSchema,
  publishedAt: z.string().nullable(),
  manifest: manifestSchema,
});

export const outcomeSchema = z.object({
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

export const auditSchema = z.object({
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
