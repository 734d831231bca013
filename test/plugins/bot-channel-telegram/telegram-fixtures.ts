/** Builders shared by the Telegram channel's tests: a handler, a source, requests, the recorded deliveries. */
import { readdirSync, readFileSync } from 'node:fs';
import {
  applyExtensionInjections,
  SendPacer,
  WebhookResponse,
  type ChannelInboundEvent,
  type ChannelSource,
  type WebhookRequest,
} from '@bot-ai/api';
import TelegramChannel from 'bot-channel-telegram';
import nock from 'nock';

export const SECRET_TOKEN = 'test-secret_token-1';
export const BOT_ID = '7000000001';
export const BOT_TOKEN = `${BOT_ID}:AAFakeTokenForTests_0123456789abcdef`;
export const API = 'https://api.telegram.org';
export const SETTINGS = { bot_token: BOT_TOKEN, secret_token: SECRET_TOKEN };

/** Ada, the user of the recorded deliveries: her id is also her private chat's. */
export const ADA_ID = 123456789;

/** A handler as the host makes it: constructed, then its extension injections applied. */
export function createChannel(): TelegramChannel {
  return applyExtensionInjections(new TelegramChannel());
}

export function createSource(settings: Record<string, unknown> = SETTINGS, id = 'source-1'): ChannelSource {
  return { id, ref: `ref-${id}`, settings, active: true };
}

/** A POST whose raw body is exactly `JSON.stringify(body)`, carrying the secret token header unless `token` is null. */
export function postRequest(body: unknown, token: string | null = SECRET_TOKEN): WebhookRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers['x-telegram-bot-api-secret-token'] = token;
  const rawBody = Buffer.from(JSON.stringify(body) ?? '');
  return { method: 'POST', headers, query: {}, params: {}, body, rawBody };
}

export function newResponse(): WebhookResponse {
  return new WebhookResponse();
}

/** One recorded delivery of `plugins/bot-channel-telegram/fixtures/deliveries/` (the author kit's format). */
export interface Delivery {
  description: string;
  request: { method?: string; headers?: Record<string, string>; body: unknown };
  sameEventsAs?: string;
  expect: { status?: number; events?: Array<Record<string, unknown>> };
}

const FIXTURES = new URL('../../../plugins/bot-channel-telegram/fixtures/', import.meta.url);

export function deliveryNames(): string[] {
  return readdirSync(new URL('deliveries/', FIXTURES))
    .filter((name) => name.endsWith('.json'))
    .sort();
}

export function readDelivery(name: string): Delivery {
  return JSON.parse(readFileSync(new URL(`deliveries/${name}`, FIXTURES), 'utf8')) as Delivery;
}

export function readManifest(): unknown {
  return JSON.parse(readFileSync(new URL('channel-check.json', FIXTURES), 'utf8'));
}

/** The body of a recorded delivery, a fresh copy each time (tests may change it). */
export function deliveryBody(name: string): Record<string, unknown> {
  return structuredClone(readDelivery(name).request.body) as Record<string, unknown>;
}

/** The first event a body decodes to, bound to `source` as the host binds it. */
export function decodeOne(body: unknown, source: ChannelSource = createSource()): ChannelInboundEvent {
  const [event] = createChannel().decode(postRequest(body), source) as ChannelInboundEvent[];
  if (!event) throw new Error('the body decoded to no event');
  return event.bindSource(source);
}

/** The first event of a recorded delivery, bound to `source`. */
export function deliveredEvent(name: string, source: ChannelSource = createSource()): ChannelInboundEvent {
  return decodeOne(readDelivery(name).request.body, source);
}

export { installDirectEgress } from '../../support/nocked-egress.ts';

/** What one intercepted Bot API call received. */
export interface Received {
  body?: unknown;
  headers?: Headers;
}

/**
 * The Bot API answers the next call of `method` (on `origin`, with the test bot token) with
 * `status` and `reply`, keeping what it received.
 */
export function botApiAnswers(method: string, status: number, reply: unknown, options: { origin?: string; token?: string; headers?: Record<string, string> } = {}) {
  const received: Received = {};
  const scope = nock(options.origin ?? API)
    .post(`/bot${options.token ?? BOT_TOKEN}/${method}`)
    .reply(async (request: Request) => {
      received.headers = request.headers;
      const text = await request.text();
      received.body = text ? JSON.parse(text) : undefined;
      return [status, reply, options.headers ?? {}];
    });
  return { scope, received };
}

/** A Bot API `Message` answer to a send. */
export function sentMessage(messageId: number, chatId = ADA_ID): unknown {
  return { ok: true, result: { message_id: messageId, from: { id: Number(BOT_ID), is_bot: true, first_name: 'Test Bot' }, chat: { id: chatId, type: 'private' }, date: 1763800900 } };
}

/** A handler whose pacing never really sleeps (it still books the slots): for tests that are not about pacing. */
export function createUnpacedChannel(): TelegramChannel {
  const channel = createChannel();
  channel.pacer = new SendPacer(1_000, { sleep: async () => {} });
  return channel;
}
