import { z } from 'zod';
import { pageSchema } from '../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import type { ChannelRegistry } from './channel-registry.ts';

const TAG = 'channels';

const packageSchema = z.object({ name: z.string(), version: z.string() }).nullable();

const channelSchema = z.object({
  name: z.string(),
  kind: z.enum(['http', 'websocket']),
  settingsSchema: z.record(z.string(), z.unknown()).describe("JSON Schema of a source's settings"),
  capabilities: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  origin: z.enum(['builtin', 'package', 'local']),
  package: packageSchema,
});

const diagnosticSchema = z.object({
  file: z.string(),
  package: packageSchema,
  name: z.string().nullable(),
  status: z.enum(['registered', 'disabled', 'rejected']),
  code: z.string().nullable(),
  message: z.string().nullable(),
});

/** The admin API's view of discovered channels (DESIGN §10). */
export function channelRoutes({ channels }: { channels: ChannelRegistry }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/channel',
      operationId: 'listChannels',
      summary: 'Registered channels with their settings JSON Schema and capabilities',
      tag: TAG,
      permission: 'channel:read',
      success: { status: 200, description: 'Every registered channel', schema: pageSchema(channelSchema) },
      handle() {
        const items = channels.registered().map((channel) => ({
          name: channel.name,
          kind: channel.loaded.description.kind,
          settingsSchema: channel.loaded.description.settingsJsonSchema,
          capabilities: channel.loaded.description.capabilities,
          enabled: true,
          origin: channel.origin,
          package: channel.package ?? null,
        }));
        return { items, total: items.length };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/channel/diagnostics',
      operationId: 'channelDiagnostics',
      summary: 'Every discovered channel file with its status and, when rejected, the reason',
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
        }));
        return { items, total: items.length };
      },
    }),
  ];
}
