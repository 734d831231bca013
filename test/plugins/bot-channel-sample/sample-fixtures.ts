/** Builders shared by the sample channel's tests: a handler, a source, signed requests. */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { applyExtensionInjections, WebhookResponse, type ChannelSource, type WebhookRequest } from '@bot-ai/api';
import SampleChannel from 'bot-channel-sample';

export const SECRET = 'whsec-test';

/** A handler as the host makes it: constructed, then its extension injections applied. */
export function createChannel(): SampleChannel {
  return applyExtensionInjections(new SampleChannel());
}

export function createSource(settings: Record<string, unknown> = {}): ChannelSource {
  return { id: 'source-1', ref: 'ref-1', settings, active: true };
}

export function getRequest(query: Record<string, string | undefined>): WebhookRequest {
  return { method: 'GET', headers: {}, query, params: {}, body: undefined, rawBody: new Uint8Array() };
}

/** A POST whose raw body is exactly `JSON.stringify(body)`, signed with `secret` unless told otherwise. */
export function postRequest(body: unknown, options: { signature?: string | null; secret?: string } = {}): WebhookRequest {
  const rawBody = Buffer.from(JSON.stringify(body));
  const signature = options.signature === undefined ? sign(rawBody, options.secret ?? SECRET) : options.signature;
  return {
    method: 'POST',
    headers: signature === null ? {} : { 'x-bot-signature': signature },
    query: {},
    params: {},
    body,
    rawBody,
  };
}

export function sign(rawBody: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

export function newResponse(): WebhookResponse {
  return new WebhookResponse();
}

/** The recorded batch in fixtures/batched-events.json: four events, one without a message. */
export function readBatchedEvents(): { events: Array<Record<string, unknown>> } {
  return JSON.parse(readFileSync(new URL('./fixtures/batched-events.json', import.meta.url), 'utf8'));
}

export { installDirectEgress } from '../../support/nocked-egress.ts';
