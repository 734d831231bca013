import { z } from 'zod';
import { AppError } from '../errors/app-error.ts';
import { pageSchema } from '../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import type { ChannelEntry, ChannelRegistry } from './channel-registry.ts';
import type { ChannelStateStore } from './channel-state-store.ts';

const TAG = 'channels';

const packageSchema = z.object({ name: z.string(), version: z.string() }).nullable();

const isolationSchema = z
  .enum(['sandbox', 'reduced', 'builtin'])
  .nullable()
  .describe('How its code is isolated while it runs: `sandbox` (its runner process in bubblewrap), `reduced` (a runner process with the permission model only), `builtin` (trusted SDK code in host threads); null when not running');

const channelSchema = z.object({
  name: z.string(),
  kind: z.enum(['http', 'websocket']),
  settingsSchema: z.record(z.string(), z.unknown()).describe("JSON Schema of a source's settings"),
  capabilities: z.record(z.string(), z.unknown()),
  connectable: z.boolean().describe("Its handler has a connect step: `POST /api/sources/:id/connect` sets a source up on the platform"),
  enabled: z.boolean(),
  running: z.boolean().describe('Enabled and its worker pool is serving traffic'),
  isolation: isolationSchema,
  origin: z.enum(['builtin', 'package', 'local']),
  package: packageSchema,
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe('Why an enabled channel is not running'),
});

const diagnosticSchema = z.object({
  file: z.string(),
  package: packageSchema,
  name: z.string().nullable(),
  status: z.enum(['registered', 'disabled', 'rejected']),
  code: z.string().nullable(),
  message: z.string().nullable(),
  isolation: isolationSchema,
  isolationReason: z.string().nullable().describe('Why the isolation is `reduced`'),
  isolationDetail: z.string().nullable().describe("The layers of its runner's isolation, e.g. `bubblewrap, seccomp; landlock: unavailable (setpriv without landlock)`; null for a built-in channel or one not running"),
  seccomp: z.boolean().nullable().describe("Whether its runner's processes are under the seccomp filter, read from /proc when asked (`Seccomp: 2`); null when no runner process is there to read"),
  runner: z
    .object({
      pid: z.number().int().nullable(),
      state: z.enum(['starting', 'running', 'restarting', 'closed']),
      restarts: z.number().int(),
      lastExit: z.object({ reason: z.string(), at: z.string() }).nullable().describe('Why its runner last ended, and when'),
    })
    .nullable()
    .describe("The channel's runner process while it runs"),
  egress: z.array(z.string()).describe("Hosts its package declares in `bot.egress`: where its fetch may go, besides its sources' `x-egress` settings"),
});

const rescanSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  upgraded: z.array(z.object({ name: z.string(), from: z.string(), to: z.string() })),
  rejected: z.array(z.object({ file: z.string(), code: z.string().nullable(), message: z.string().nullable() })),
});

const nameParams = z.object({ name: z.string().min(1).max(200) });

export interface ChannelRouteDeps {
  channels: ChannelRegistry;
  channelStates: ChannelStateStore;
}

/** The admin API's view of discovered channels, and hot enable, disable and rescan, with no restart. */
export function channelRoutes({ channels, channelStates }: ChannelRouteDeps): RouteDefinition[] {
  const setEnabled = (enabled: boolean) =>
    defineRoute({
      method: 'POST',
      path: `/api/channel/:name/${enabled ? 'enable' : 'disable'}`,
      operationId: enabled ? 'enableChannel' : 'disableChannel',
      summary: enabled
        ? 'Enable a channel on every instance: its pool starts and its webhooks are served at once'
        : 'Disable a channel on every instance: its webhooks answer 503 at once and its pool drains',
      tag: TAG,
      permission: 'channel:update',
      params: nameParams,
      success: { status: 200, description: 'The channel after the change', schema: channelSchema },
      errors: [404, 409],
      async handle({ params, principal }) {
        const current = channels.get(params.name);
        if (!current) throw new AppError('BOT_ERR_CHANNEL_NOT_FOUND', `No registered channel is named "${params.name}"`);
        // Kept with the state, so a disabled channel is listed from it and never imported again.
        const declaration = { file: current.file, fingerprint: current.fingerprint, description: current.description };
        await channelStates.save(params.name, enabled, principal?.sub ?? 'unknown', declaration);
        await channels.applyStates();
        const entry = channels.get(params.name);
        if (!entry) throw new AppError('BOT_ERR_CHANNEL_NOT_FOUND', `No registered channel is named "${params.name}"`);
        if (enabled && !entry.loaded) {
          throw new AppError('BOT_ERR_CHANNEL_START_FAILED', `Channel "${params.name}" is enabled but could not start`, entry.failure);
        }
        return toView(entry);
      },
    });

  return [
    defineRoute({
      method: 'GET',
      path: '/api/channel',
      operationId: 'listChannels',
      summary: 'Registered channels, enabled or not, with their settings JSON Schema and capabilities',
      tag: TAG,
      permission: 'channel:read',
      success: { status: 200, description: 'Every registered channel', schema: pageSchema(channelSchema) },
      handle() {
        const items = channels.registered().map(toView);
        return { items, total: items.length };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/channel/diagnostics',
      operationId: 'channelDiagnostics',
      summary: 'Every discovered channel file with its status and, when rejected or failed, the reason',
      tag: TAG,
      permission: 'channel:read',
      success: { status: 200, description: 'One entry per file', schema: pageSchema(diagnosticSchema) },
      handle() {
        const items = channels.diagnostics().map((entry) => ({
          ...entry,
          package: entry.package ?? null,
          name: entry.name ?? null,
          code: entry.code ?? null,
          message: entry.message ?? null,
          isolation: entry.isolation ?? null,
          isolationReason: entry.isolationReason ?? null,
          isolationDetail: entry.isolationDetail ?? null,
          seccomp: entry.seccomp ?? null,
          runner: entry.runner ? { ...entry.runner, pid: entry.runner.pid ?? null, lastExit: entry.runner.lastExit ?? null } : null,
        }));
        return { items, total: items.length };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/channel/rescan',
      operationId: 'rescanChannels',
      summary: 'Rediscover channels now, here and on every other instance; upgraded channels move to a new pool while the old one drains',
      tag: TAG,
      permission: 'channel:update',
      success: { status: 200, description: 'What the rescan changed on this instance', schema: rescanSchema },
      async handle() {
        // Announced first, so every instance rescans its own disk alongside this one rather than
        // after it (an upgrade then reaches all of them about as soon as this one); a rescan is
        // idempotent, so one announced for a rescan that fails here costs the others nothing.
        await channelStates.announceRescan();
        const report = await channels.rescan();
        return {
          ...report,
          rejected: report.rejected.map(({ file, code, message }) => ({ file, code: code ?? null, message: message ?? null })),
        };
      },
    }),
    setEnabled(true),
    setEnabled(false),
  ];
}

function toView(entry: ChannelEntry<unknown>): z.input<typeof channelSchema> {
  return {
    name: entry.name,
    kind: entry.description.kind,
    settingsSchema: entry.description.settingsJsonSchema,
    capabilities: entry.description.capabilities,
    connectable: entry.description.connectable ?? false,
    enabled: entry.enabled,
    running: entry.enabled && entry.loaded !== undefined,
    isolation: entry.loaded?.status?.().isolation ?? null,
    origin: entry.origin,
    package: entry.package ?? null,
    error: entry.failure ?? null,
  };
}
