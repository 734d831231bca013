/** Builders shared by the WhatsApp channel's tests: a handler, a source, signed requests, the recorded deliveries. */
import { readdirSync, readFileSync } from 'node:fs';
import {
  applyExtensionInjections,
  WebhookResponse,
  type ChannelInboundEvent,
  type ChannelSource,
  type WebhookRequest,
} from '@bot-ai/api';
import WhatsAppChannel, { signWhatsAppBody } from 'bot-channel-whatsapp';
import { checkManifestSchema, deliveryFixtureSchema, type CheckManifest, type DeliveryFixture } from '@bot-ai/api/check';

export const APP_SECRET = 'app-secret-test';
export const PHONE_NUMBER_ID = '106540352242922';
export const GRAPH = 'https://graph.facebook.com';

/** Settings of a configured source (the Graph API at its real address, intercepted by nock). */
export const SETTINGS = {
  access_token: 'EAAtoken',
  app_secret: APP_SECRET,
  verify_token: 'verify-1',
  phone_number_id: PHONE_NUMBER_ID,
} as const;

/** The package's fixtures folder, which the author kit reads. */
const FIXTURES = new URL('../../../plugins/bot-channel-whatsapp/fixtures/', import.meta.url);

/** A handler as the host makes it: constructed, then its extension injections applied. */
export function createChannel(): WhatsAppChannel {
  return applyExtensionInjections(new WhatsAppChannel());
}

export function createSource(settings: Record<string, unknown> = SETTINGS): ChannelSource {
  return { id: 'source-1', ref: 'ref-1', settings, active: true };
}

export function getRequest(query: Record<string, string | undefined>): WebhookRequest {
  return { method: 'GET', headers: {}, query, params: {}, body: undefined, rawBody: new Uint8Array() };
}

/** A POST whose raw body is exactly `JSON.stringify(body)`, signed with `secret` unless told otherwise. */
export function postRequest(body: unknown, options: { signature?: string | null; secret?: string; headers?: Record<string, string> } = {}): WebhookRequest {
  const rawBody = Buffer.from(JSON.stringify(body));
  const signature = options.signature === undefined ? signWhatsAppBody(rawBody, options.secret ?? APP_SECRET) : options.signature;
  return {
    method: 'POST',
    headers: { ...options.headers, ...(signature === null ? {} : { 'x-hub-signature-256': signature }) },
    query: {},
    params: {},
    body,
    rawBody,
  };
}

export function newResponse(): WebhookResponse {
  return new WebhookResponse();
}

/** The file names of `fixtures/deliveries/*.json`. */
export function deliveryNames(): string[] {
  return readdirSync(new URL('deliveries/', FIXTURES)).filter((name) => name.endsWith('.json')).sort();
}

/** One recorded delivery, parsed with the author kit's schema. */
export function readDelivery(name: string): DeliveryFixture {
  return deliveryFixtureSchema.parse(JSON.parse(readFileSync(new URL(`deliveries/${name}`, FIXTURES), 'utf8')));
}

/** `fixtures/channel-check.json`, parsed with the author kit's schema. */
export function readManifest(): CheckManifest {
  return checkManifestSchema.parse(JSON.parse(readFileSync(new URL('channel-check.json', FIXTURES), 'utf8')));
}

/** The manifest's settings with `{{platform}}` replaced, as the author kit does with its fake platform's URL. */
export function manifestSettings(platform = 'http://127.0.0.1:9'): Record<string, unknown> {
  const settings = readManifest().settings;
  return Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, typeof value === 'string' ? value.replaceAll('{{platform}}', platform) : value]));
}

/** The request of a recorded delivery, signed as Meta signs it. */
export function deliveryRequest(name: string): WebhookRequest {
  const { request } = readDelivery(name);
  return postRequest(request.body, { headers: request.headers });
}

/** The events of a recorded delivery, decoded for `source` and bound to it, as the host does. */
export function decodeDelivery(name: string, source = createSource()): ChannelInboundEvent[] {
  return (createChannel().decode(deliveryRequest(name), source) as ChannelInboundEvent[]).map((event) => event.bindSource(source));
}

export { installDirectEgress } from '../../support/nocked-egress.ts';
