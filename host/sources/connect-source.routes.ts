import { z } from 'zod';
import { requestOrigin } from '../http/request-origin.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import { connectSource, type ConnectSourceDeps } from './connect-source.ts';

const connectResultSchema = z.object({
  connected: z.boolean().describe('Whether the platform now calls the webhook'),
  message: z.string().describe('What happened, in the channel\'s words'),
  instructions: z.string().optional().describe('Text to copy to the platform\'s side (an app manifest), shown as is'),
});

export interface ConnectSourceRouteDeps extends ConnectSourceDeps {
  /** BOT_PUBLIC_URL: the base of webhook URLs; default the request's origin. */
  publicUrl: string | undefined;
}

/**
 * `POST /api/sources/:id/connect`: the channel's connect step, for the channels whose
 * description says `connectable`.
 * @example connectSourceRoutes({ sources, channels, publicUrl: 'https://bot.example' })
 */
export function connectSourceRoutes(deps: ConnectSourceRouteDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/sources/:id/connect',
      operationId: 'connectSource',
      summary: "Connect a source to its platform through its channel's connect step, with the source's webhook URL",
      tag: 'sources',
      permission: 'source:update',
      params: z.object({ id: z.string().describe('Source id') }),
      errors: [404, 409, 502, 503],
      success: { status: 200, description: "The channel's answer", schema: connectResultSchema },
      handle: ({ params, ctx }) => connectSource(deps, params.id, deps.publicUrl ?? requestOrigin(ctx)),
    }),
  ];
}
