import Router from '@koa/router';
import Koa from 'koa';
import pino from 'pino';
import { applyExtensionInjections, WebhookResponse, type ChannelSource } from '@bot-ai/api';
// The built plugin (plugins/bot-channel-sample/dist, through its workspace link), as discovery loads it.
import SampleChannel from 'bot-channel-sample';
import { AppError } from '../../host/errors/app-error.ts';
import type { AppState } from '../../host/http/app-state.ts';
import { errorMiddleware } from '../../host/http/error-middleware.ts';
import { readRawBody } from '../../host/http/read-raw-body.ts';
import { requestContext } from '../../host/http/request-context.ts';
import { parseWebhookBody } from '../../host/channels/plugin-side/parse-webhook-body.ts';
import { toPlainWebhookRequest } from '../../host/webhooks/to-plain-webhook-request.ts';

/**
 * The ingest benchmark's baseline: the webhook route with the same middleware and body reading
 * as the host's, but the sample channel's verify and decode run on the main thread and nothing is
 * written. The source is held in memory, as the production route's SourceCache holds it. What
 * the production route costs beyond this is the price of the sandbox hop and the durable commit
 * (events and their dispatch jobs).
 */
export function buildBaselineApp(source: ChannelSource, maxBodyBytes: number): Koa<AppState> {
  const channel = applyExtensionInjections(new SampleChannel());
  const app = new Koa<AppState>();
  app.silent = true;
  const router = new Router<AppState>();
  router.post('/api/webhook/:sourceRef', async (ctx) => {
    if (ctx.params.sourceRef !== source.ref) throw new AppError('BOT_ERR_WEBHOOK_SOURCE_UNKNOWN', 'Unknown webhook');
    // The request as the sandbox's worker rebuilds it: the body parsed from the bytes, on this thread here.
    const rawBody = await readRawBody(ctx, maxBodyBytes);
    const request = { ...toPlainWebhookRequest(ctx, rawBody), body: parseWebhookBody(rawBody), rawBody };
    try {
      channel.verifySignature(request, new WebhookResponse(), source);
    } catch (error) {
      throw new AppError('BOT_ERR_WEBHOOK_SIGNATURE_REJECTED', 'Signature rejected', undefined, { cause: error });
    }
    let decoded;
    try {
      decoded = channel.decode(request, source);
    } catch (error) {
      throw new AppError('BOT_ERR_WEBHOOK_PAYLOAD_REJECTED', 'Payload rejected', undefined, { cause: error });
    }
    const events = decoded.map((event) => event.bindSource(source).toPlain());
    ctx.body = { received: events.length };
  });
  app.use(requestContext(pino({ level: 'silent' })));
  app.use(errorMiddleware());
  app.use(router.routes());
  return app;
}
