/** Builders shared by the Slack channel's tests: a handler, a source, signed requests, the recorded deliveries. */
import { readdirSync, readFileSync } from 'node:fs';
import {
  applyExtensionInjections,
  SendPacer,
  WebhookResponse,
  type ChannelInboundEvent,
  type ChannelSource,
  type WebhookRequest,
} from '@bot-ai/api';
import SlackChannel, { signSlackRequest } from 'bot-channel-slack';

export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
export const BOT_TOKEN = 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy';
export const SLACK_API = 'https://slack.com';

/** The fixed "now" of the tests: 2023-11-14T22:13:20Z. */
export const NOW_MS = 1_700_000_000_000;
export const NOW_SECONDS = NOW_MS / 1000;

/**
 * A handler as the host makes it (constructed, then its injections applied), on a fixed clock,
 * with a pacer that never waits (tests of pacing bring their own).
 */
export function createChannel(): SlackChannel {
  const channel = applyExtensionInjections(new SlackChannel());
  channel.now = () => NOW_MS;
  channel.pacer = new SendPacer(0);
  return channel;
}

export function createSource(settings: Record<string, unknown> = { signing_secret: SIGNING_SECRET, bot_token: BOT_TOKEN }): ChannelSource {
  return { id: 'source-1', ref: 'ref-1', settings, active: true };
}

export function newResponse(): WebhookResponse {
  return new WebhookResponse();
}

interface RequestOptions {
  /** Default: the JSON content type, or the form one for a form body. */
  contentType?: string;
  /** Signed at this Unix time (seconds); default NOW_SECONDS. */
  timestamp?: number | string;
  secret?: string;
  /** Replace the signature (null: no header). */
  signature?: string | null;
  /** The `req.body` the host gives; default: the JSON of the raw body, or undefined. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A POST of `rawBody`, signed as Slack signs it unless told otherwise. */
export function slackRequest(rawBody: string, options: RequestOptions = {}): WebhookRequest {
  const timestamp = String(options.timestamp ?? NOW_SECONDS);
  const bytes = Buffer.from(rawBody, 'utf8');
  const signature = options.signature === undefined ? signSlackRequest(bytes, timestamp, options.secret ?? SIGNING_SECRET) : options.signature;
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? (/^[[{]/.test(rawBody) ? 'application/json' : 'application/x-www-form-urlencoded'),
    'x-slack-request-timestamp': timestamp,
    ...(signature === null ? {} : { 'x-slack-signature': signature }),
    ...options.headers,
  };
  return { method: 'POST', headers, query: {}, params: {}, body: 'body' in options ? options.body : parseJson(rawBody), rawBody: bytes };
}

/** A signed Events API POST whose raw body is exactly `JSON.stringify(body)`. */
export function jsonRequest(body: unknown, options: RequestOptions = {}): WebhookRequest {
  return slackRequest(JSON.stringify(body), options);
}

/** A signed interactivity POST: the form `payload=<JSON>`. */
export function interactionRequest(payload: unknown, options: RequestOptions = {}): WebhookRequest {
  return slackRequest(`payload=${encodeURIComponent(JSON.stringify(payload))}`, options);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One file of `plugins/bot-channel-slack/fixtures/deliveries/`, as the author kit reads it. */
export interface Delivery {
  description: string;
  signed?: boolean;
  sameEventsAs?: string;
  request: { headers?: Record<string, string>; body?: unknown; rawBody?: string };
  expect: { status?: number; events?: Array<Record<string, unknown>>; responseBodyIncludes?: string };
}

const DELIVERIES = new URL('../../../plugins/bot-channel-slack/fixtures/deliveries/', import.meta.url);

export function deliveryFiles(): string[] {
  return readdirSync(DELIVERIES).filter((name) => name.endsWith('.json')).sort();
}

export function readDelivery(file: string): Delivery {
  return JSON.parse(readFileSync(new URL(file, DELIVERIES), 'utf8')) as Delivery;
}

export function readCheckManifest(): Record<string, unknown> & { settings: Record<string, unknown>; subscriber: Record<string, unknown> } {
  return JSON.parse(readFileSync(new URL('../channel-check.json', DELIVERIES), 'utf8'));
}

/**
 * The request of a delivery file as the host hands it over, signed now (unless the file says
 * `signed: false`); `req.body` is the JSON, or undefined for a form (the channel must read the
 * raw form itself).
 */
export function deliveryRequest(delivery: Delivery): WebhookRequest {
  const rawBody = delivery.request.rawBody ?? JSON.stringify(delivery.request.body);
  const headers = Object.fromEntries(Object.entries(delivery.request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  if (delivery.signed === false) {
    return { method: 'POST', headers, query: {}, params: {}, body: parseJson(rawBody), rawBody: Buffer.from(rawBody) };
  }
  return slackRequest(rawBody, { headers, contentType: headers['content-type'] ?? 'application/json' });
}

/** The events of a delivery file, decoded (and checked for its signature first, as the host does). */
export function decodeDelivery(file: string, channel = createChannel()): ChannelInboundEvent[] {
  const request = deliveryRequest(readDelivery(file));
  const source = createSource();
  channel.verifySignature(request, newResponse(), source);
  return (channel.decode(request, source) as ChannelInboundEvent[]).map((event) => event.bindSource(source));
}

export { installDirectEgress } from '../../support/nocked-egress.ts';
