import type { PlainWebhookResponse } from '@bot-ai/api';
import type { Context } from 'koa';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { ChannelCalls } from '../channels/calls/channel-calls.ts';
import { errorCode } from '../errors/describe-error.ts';
import { AppError } from '../errors/app-error.ts';
import { storableAsIs } from '../json/storable.ts';
import type { RawRouteDefinition } from '../http/route-definition.ts';
import { z } from 'zod';
import type { InboxStore } from '../inbox/inbox-store.ts';
import type { SourceCache } from '../sources/source-cache.ts';
import { readRawBody } from '../http/read-raw-body.ts';
import { toPlainWebhookRequest } from './to-plain-webhook-request.ts';
import type { WorkflowStore } from '../workflows/storage/workflow-store.ts';

export interface WebhookDeps {
  /** Sources by ref, from memory: a webhook costs no source query. */
  sources: Pick<SourceCache, 'get'>;
  channels: ChannelRegistry<ChannelCalls>;
  inbox: InboxStore;
  workflows: Pick<WorkflowStore, 'exists'>;
  maxBodyBytes: number;
  /** Times each POST from arrival to answer (`bot_webhook_ack_seconds`). */
  ackTimer?: { startTimer(labels?: { channel: string }): (labels: { outcome: string }) => number };
}

/** Every path under it is a platform's: the webhook routes, and attachment downloads beside them. */
export const WEBHOOK_PATH_PREFIX = '/api/webhook/';

const PATHS = [
  { path: `${WEBHOOK_PATH_PREFIX}:sourceRef`, name: 'Webhook', params: z.object({ sourceRef: z.string().describe("The source's webhook reference") }) },
  {
    path: `${WEBHOOK_PATH_PREFIX}:sourceRef/:workflowId`,
    name: 'WebhookForWorkflow',
    params: z.object({ sourceRef: z.string().describe("The source's webhook reference"), workflowId: z.string().describe("Runs this workflow instead of the source's default") }),
  },
];

/** What a webhook answers besides the channel's own answer, for the document. */
const WEBHOOK_ERRORS = {
  400: { description: 'The channel could not read the payload (BOT_ERR_WEBHOOK_PAYLOAD_REJECTED)' },
  401: { description: 'The signature does not hold (BOT_ERR_WEBHOOK_SIGNATURE_REJECTED)' },
  404: { description: 'No such source or workflow' },
  405: { description: "The source's channel takes WebSocket connections, not webhooks" },
  413: { description: 'Body over BOT_WEBHOOK_MAX_BODY_BYTES' },
  503: { description: 'The channel is loading, disabled or busy, or the database is unreachable: the platform retries' },
};

/**
 * The outcomes a channel's answer to a POST may have. A runner writes its own answers, so a
 * plugin can put anything there: any other value is a broken answer, never a metrics label
 * (each new label value would be one more time series, kept for the host's lifetime).
 */
const WEBHOOK_OUTCOMES: ReadonlySet<unknown> = new Set(['accepted', 'rejected', 'invalid']);

/**
 * The public webhook routes: GET → the channel's verifyWebhook; POST →
 * verifySignature and decode in the channel's sandbox (one task) → events committed to the
 * inbox → 200. Error bodies name a code and nothing internal.
 */
export function webhookRoutes(deps: WebhookDeps): RawRouteDefinition[] {
  return PATHS.flatMap(({ path, name, params }): RawRouteDefinition[] => [
    {
      method: 'GET', path, operationId: `verify${name}`, tag: 'webhooks', permission: null, params,
      summary: "A platform's handshake (e.g. Meta's hub.challenge), answered by the source's channel in its sandbox",
      responses: { 200: { description: "The channel's answer", type: 'text/plain' }, ...WEBHOOK_ERRORS },
      answer: (ctx) => handleWebhook(ctx, deps),
    },
    {
      method: 'POST', path, operationId: `receive${name}`, tag: 'webhooks', permission: null, params,
      summary: "A platform's delivery: the channel checks its signature and decodes it in its sandbox; a 200 means the events are committed to the inbox",
      requestBody: { description: "The platform's bytes, as it signed them", types: ['application/json', 'application/x-www-form-urlencoded', '*/*'] },
      responses: { 200: { description: "The channel's answer (by default `{\"received\": n}`)", type: 'application/json' }, ...WEBHOOK_ERRORS },
      answer: (ctx) => handleWebhook(ctx, deps),
    },
  ]);
}

async function handleWebhook(ctx: Context, deps: WebhookDeps): Promise<void> {
  const source = await deps.sources.get(ctx.params.sourceRef);
  if (!source) throw new AppError('BOT_ERR_WEBHOOK_SOURCE_UNKNOWN', 'Unknown webhook');
  if (ctx.params.workflowId !== undefined && !(await deps.workflows.exists(ctx.params.workflowId))) {
    throw new AppError('BOT_ERR_WEBHOOK_WORKFLOW_UNKNOWN', 'Unknown workflow');
  }
  // Checked before the body is read too, so a disabled channel or a socket-only one costs no upload.
  if (deps.channels.get(source.channel)?.description.kind === 'websocket') throw notAccepted(ctx);
  if (!deps.channels.running(source.channel)) throw unavailable();
  const request = toPlainWebhookRequest(ctx, await readRawBody(ctx, deps.maxBodyBytes));
  const channel = source.channel;
  if (ctx.method === 'GET') {
    return replay(ctx, await callChannel(ctx, () => deps.channels.call(channel, (sandbox) => sandbox.verifyWebhook(request, source))));
  }
  const stopTimer = deps.ackTimer?.startTimer({ channel });
  let outcome = 'failed';
  try {
    const result = await callChannel(ctx, () => deps.channels.call(channel, (sandbox) => sandbox.receiveWebhook(request, source)));
    if (!WEBHOOK_OUTCOMES.has(result.outcome)) throw new AppError('BOT_ERR_INTERNAL', 'Channel call failed: BOT_ERR_PLUGIN_INVALID_RESULT');
    outcome = result.outcome;
    if (result.outcome === 'rejected') throw new AppError('BOT_ERR_WEBHOOK_SIGNATURE_REJECTED', 'Signature rejected');
    if (result.outcome === 'invalid') throw new AppError('BOT_ERR_WEBHOOK_PAYLOAD_REJECTED', 'Payload rejected');
    // Committed before the answer is written: a 200 always means the events are in Postgres. A
    // NUL or a broken surrogate in one message must not make jsonb refuse the whole batch.
    await deps.inbox.commit({ sourceId: source.id, channel, workflowId: ctx.params.workflowId, events: storableAsIs(result.events) });
    replay(ctx, result.response, { received: result.events.length });
  } catch (error) {
    if (outcome === 'accepted') outcome = 'failed';
    throw error;
  } finally {
    stopTimer?.({ outcome });
  }
}

/**
 * A channel that is disabled, busy, crashed or closing answers 503 so the platform retries;
 * nothing more is said. One that has no webhook calls (a WebSocket channel whose kind changed
 * since it was described) answers 405 like any other WebSocket channel, never 500.
 */
async function callChannel<T>(ctx: Context, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if ((error as { status?: number }).status === 503) throw unavailable(error);
    if (errorCode(error) === 'BOT_ERR_PLUGIN_CALL_UNSUPPORTED') throw notAccepted(ctx, error);
    throw new AppError('BOT_ERR_INTERNAL', `Channel call failed: ${errorCode(error) ?? 'unknown'}`, undefined, { cause: error });
  }
}

/** A WebSocket channel's source has no webhook: 405 with an empty Allow (no method is), a coded body, no stack at info. */
function notAccepted(ctx: Context, cause?: unknown): AppError {
  ctx.set('Allow', '');
  return new AppError('BOT_ERR_WEBHOOK_NOT_ACCEPTED', "This source's channel takes WebSocket connections, not webhooks", undefined, { cause });
}

function unavailable(cause?: unknown): AppError {
  return new AppError('BOT_ERR_WEBHOOK_CHANNEL_UNAVAILABLE', 'Channel unavailable; retry later', undefined, { cause });
}

/**
 * Headers every webhook answer carries, set after the channel's so it cannot loosen them. The
 * answer is for a platform, and it is served on the host's origin, the admin panel's (whose token
 * is in that origin's localStorage): whatever a channel writes there (an HTML page, a script) is
 * sandboxed with nothing allowed, so it runs no script and reads nothing of the origin, and it is
 * never sniffed into another type.
 */
const WEBHOOK_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The headers of a channel's answer the host passes on: what a platform's handshake needs. The
 * answer is served on the panel's origin, so a channel may not set cookies there, nor redirect
 * browsers from it (Location), nor anything else a platform never reads.
 */
const CHANNEL_ANSWER_HEADERS: ReadonlySet<string> = new Set(['content-type', 'allow', 'retry-after', 'cache-control']);

/**
 * Replays what the channel wrote onto the real response; 200 with a small JSON body by default.
 * A status that is not a success or an error (a redirect, an informational one) is a broken
 * answer: no platform needs one, and a redirect would make the host's origin an open redirect.
 */
function replay(ctx: Context, response: PlainWebhookResponse, defaultBody?: object): void {
  const status = response.statusCode ?? 200;
  if (!Number.isInteger(status) || status < 200 || (status >= 300 && status < 400) || status > 599) {
    throw new AppError('BOT_ERR_INTERNAL', 'Channel call failed: BOT_ERR_PLUGIN_INVALID_RESULT');
  }
  ctx.status = status;
  for (const [name, value] of Object.entries(response.headers)) {
    if (CHANNEL_ANSWER_HEADERS.has(name.toLowerCase())) ctx.set(name, value);
  }
  ctx.set(WEBHOOK_ANSWER_HEADERS);
  ctx.body = response.body ?? defaultBody ?? '';
}
