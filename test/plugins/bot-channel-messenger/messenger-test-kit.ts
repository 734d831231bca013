/** Builders shared by the Messenger channel's tests: a handler, sources, signed requests, the package's fixtures, a fake Graph API. */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import {
  applyExtensionInjections,
  rebuildInboundEvent,
  WebhookResponse,
  type ChannelInboundEvent,
  type ChannelSource,
  type WebhookRequest,
} from '@bot-ai/api';
import { checkManifestSchema, deliveryFixtureSchema, fixtureToRequest, type CheckManifest, type DeliveryFixture } from '@bot-ai/api/check';
import MessengerChannel from 'bot-channel-messenger';
import nock from 'nock';

export const APP_SECRET = 'app-secret-test';
export const PAGE_ID = '102938475610293';
export const ADA = '6723419087613458';
export const GRAPH = 'https://graph.facebook.com';
export const PAGE_TOKEN = 'EAAtest-page-token';

/** Settings a sending source has: the real Graph API, a token, the Page. */
export const SEND_SETTINGS = { page_access_token: PAGE_TOKEN, app_secret: APP_SECRET, page_id: PAGE_ID };

const FIXTURES = new URL('../../../plugins/bot-channel-messenger/fixtures/', import.meta.url);

/** A handler as the host makes it: constructed, then its extension injections applied. */
export function createChannel(): MessengerChannel {
  return applyExtensionInjections(new MessengerChannel());
}

export function createSource(settings: Record<string, unknown> = {}): ChannelSource {
  return { id: 'source-1', ref: 'ref-1', settings, active: true };
}

export function getRequest(query: Record<string, string | undefined>): WebhookRequest {
  return { method: 'GET', headers: {}, query, params: {}, body: undefined, rawBody: new Uint8Array() };
}

/** The `X-Hub-Signature-256` value, computed here independently of the package. */
export function sign(rawBody: Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** A POST whose raw body is exactly `JSON.stringify(body)`, signed with `secret` (default APP_SECRET) unless `signature` says otherwise (null: no header). */
export function postRequest(body: unknown, options: { signature?: string | null; secret?: string } = {}): WebhookRequest {
  const rawBody = Buffer.from(JSON.stringify(body));
  const signature = options.signature === undefined ? sign(rawBody, options.secret ?? APP_SECRET) : options.signature;
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-hub-signature-256': signature }) },
    query: {},
    params: {},
    body,
    rawBody,
  };
}

export function newResponse(): WebhookResponse {
  return new WebhookResponse();
}

/** The names of the package's recorded deliveries (`fixtures/deliveries/*.json`). */
export function deliveryNames(): string[] {
  return readdirSync(new URL('deliveries/', FIXTURES)).filter((name) => name.endsWith('.json')).sort();
}

/** One recorded delivery, validated with the author kit's schema. */
export function readDelivery(name: string): DeliveryFixture {
  return deliveryFixtureSchema.parse(JSON.parse(readFileSync(new URL(`deliveries/${name}`, FIXTURES), 'utf8')));
}

/** The author kit's manifest of the package, validated. */
export function readManifest(): CheckManifest {
  return checkManifestSchema.parse(JSON.parse(readFileSync(new URL('channel-check.json', FIXTURES), 'utf8')));
}

/** The request of a recorded delivery, as the host hands it over, signed with APP_SECRET. */
export function deliveryRequest(name: string): WebhookRequest {
  const request = fixtureToRequest(readDelivery(name).request);
  return { ...request, headers: { ...request.headers, 'x-hub-signature-256': sign(request.rawBody, APP_SECRET) } };
}

/** The events of a recorded delivery, decoded for a source with `settings` (default: the fixtures' Page). */
export function decodeDelivery(name: string, settings: Record<string, unknown> = { page_id: PAGE_ID }): ChannelInboundEvent[] {
  return createChannel().decode(deliveryRequest(name), createSource(settings)) as ChannelInboundEvent[];
}

/** The first event of a recorded delivery as the host hands it to a send: stored as plain data, rebuilt, bound to its source. */
export function storedEvent(name: string, settings: Record<string, unknown> = SEND_SETTINGS): ChannelInboundEvent {
  const [event] = decodeDelivery(name, { page_id: PAGE_ID });
  if (!event) throw new Error(`${name} decodes to no event`);
  const source = createSource(settings);
  return rebuildInboundEvent(structuredClone(event.bindSource(source).toPlain())).bindSource(source);
}

export { installDirectEgress } from '../../support/nocked-egress.ts';

/** What the fake Graph API received, one entry per request. */
export interface Received {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

/**
 * The Graph API answers the next `times` requests to `method path` (path with query) with
 * `status` and `reply` (and `headers`), and records what it received.
 */
export function graphAnswers(
  method: 'GET' | 'POST',
  path: string | RegExp,
  status: number,
  reply: unknown,
  options: { headers?: Record<string, string>; times?: number; origin?: string } = {},
): { scope: nock.Scope; received: Received[] } {
  const received: Received[] = [];
  const interceptor = method === 'GET' ? nock(options.origin ?? GRAPH).get(path) : nock(options.origin ?? GRAPH).post(path);
  const scope = interceptor.times(options.times ?? 1).reply(async (request: Request) => {
    const url = new URL(request.url);
    received.push({ method: request.method, path: `${url.pathname}${url.search}`, headers: request.headers, body: await request.text() });
    return [status, reply, options.headers ?? {}];
  });
  return { scope, received };
}
