/**
 * Worker side: a source's connect step, asked for from the admin panel (e.g. Telegram's
 * `setWebhook`). The plugin's answer is shown to the operator, so it is checked here.
 *
 * Loaded without tsx (Node's own type stripping): erasable TypeScript only.
 */
import type { ChannelSource, ConnectContext, ConnectResult, HttpChannelHandler } from '@bot-ai/api';
import { z } from 'zod';
import { callPlugin } from './call-plugin.ts';
import { SandboxError } from './sandbox-error.ts';

/** What connect() must answer; the host checks the runner's answer against it again (a runner writes its own answers). */
export const connectResultSchema = z.object({
  connected: z.boolean(),
  message: z.string(),
  instructions: z.string().optional(),
});

/**
 * Connects `source` to its platform, which is to call `context.webhookUrl`.
 * @example await connectTask(handler, source, { webhookUrl: 'https://bot.example/api/webhook/abc' }) // { connected: true, message: 'Webhook set' }
 */
export async function connectTask(handler: Pick<HttpChannelHandler, 'connect'>, source: ChannelSource, context: ConnectContext): Promise<ConnectResult> {
  const result = await callPlugin('connect', () => handler.connect(source, context));
  const parsed = connectResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `connect() must return { connected: boolean, message: string, instructions?: string }: ${z.prettifyError(parsed.error)}`);
  }
  const { connected, message, instructions } = parsed.data;
  return { connected, message, ...(instructions === undefined ? {} : { instructions }) };
}
