import { z } from 'zod';

/** A configured instance of a channel, as stored. */
export interface SourceRow {
  id: string;
  ref: string;
  name: string;
  channel: string;
  settings: Record<string, unknown>;
  /**
   * The settings an operator granted egress with: keys marked `x-egress` when the operator saved
   * their values. NULL for a source whose settings were last saved before grants were recorded:
   * every marked key counts.
   */
  egress_grants: string[] | null;
  active: boolean;
  default_workflow_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A source as the admin API returns it: secrets masked, with the URL platforms post to or people chat at. */
export const sourceViewSchema = z.object({
  id: z.uuid(),
  ref: z.string(),
  name: z.string(),
  channel: z.string(),
  settings: z.record(z.string(), z.unknown()).describe('Secret settings read as ********'),
  active: z.boolean(),
  defaultWorkflowId: z.string().nullable(),
  webhookUrl: z.string().nullable().describe('Where the platform posts events; null for a WebSocket channel, which takes no webhooks'),
  chatUrl: z.string().nullable().describe("The chat page of a web source (`/chat/:ref`); null for other channels"),
  egressOrigins: z
    .array(z.string())
    .describe("Where its channel's fetch may go for this source besides the package's bot.egress hosts: the origins of the x-egress settings whose values an operator saved while the channel marked them x-egress (a default, or a value saved while the setting was not marked, grants nothing)"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SourceView = z.infer<typeof sourceViewSchema>;

/** Where the channels' published settings schemas come from (the channel registry). */
export interface ChannelSettingsSchemas {
  /** The channel's settings JSON Schema, or undefined when no such channel is registered. */
  settingsSchemaOf(channel: string): Record<string, unknown> | undefined;
}

/** The channels a source view describes: their settings schemas, and whether they take webhooks. */
export interface SourceChannels extends ChannelSettingsSchemas {
  /** The registered channel, or undefined; `kind` says whether it takes webhooks or sockets. */
  get(channel: string): { description: { kind: 'http' | 'websocket' } } | undefined;
}
