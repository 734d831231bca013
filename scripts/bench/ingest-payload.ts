/**
 * The ingest benchmark's webhooks: sample-channel payloads (plugins/bot-channel-sample README) of
 * about BODY_BYTES, 1 to 3 events each, every event id unique, signed like the platform signs.
 * Plain, erasable TypeScript: the load process runs it with Node's own type stripping.
 */
import { createHmac } from 'node:crypto';
import { signRequest, type SignatureScheme } from '@bot-ai/api/check';
import type { PlatformDelivery } from './ingest-load-plan.ts';

export const BODY_BYTES = 1024;
export const SIGNATURE_HEADER = 'x-bot-signature';

export interface SignedWebhook {
  body: string;
  signature: string;
  events: number;
}

const FILLER = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. '.repeat(16);

/** Webhook number `sequence` of a run: 1, 2 or 3 events in turn, ids `<idPrefix>-<sequence>-<n>`. */
export function signedWebhook(secret: string, idPrefix: string, sequence: number): SignedWebhook {
  const events = 1 + (sequence % 3);
  const bare = payload(idPrefix, sequence, events, '');
  const textLength = Math.max(1, Math.floor((BODY_BYTES - Buffer.byteLength(bare)) / events));
  const body = payload(idPrefix, sequence, events, FILLER.slice(0, textLength));
  return { body, signature: createHmac('sha256', secret).update(body).digest('hex'), events };
}

function payload(idPrefix: string, sequence: number, events: number, text: string): string {
  return JSON.stringify({
    events: Array.from({ length: events }, (_, index) => ({
      id: `${idPrefix}-${sequence}-${index}`,
      timestamp: 1763800000000 + sequence,
      sender: { id: `user-${sequence % 1000}`, first_name: 'Ada', last_name: 'Lovelace' },
      recipient: { id: 'bot-1' },
      message: { text },
    })),
  });
}

/**
 * Delivery number `sequence` of a platform arm: the recorded body with its event id made unique
 * (a numeric id stays a number: `<base><sequence>`), signed now as the platform signs it.
 */
export function platformWebhook(delivery: PlatformDelivery, idPrefix: string, numericBase: number, sequence: number): { body: string; headers: Record<string, string>; events: number } {
  const numeric = /^\d+$/.test(delivery.idToken);
  const unique = numeric ? String(numericBase + sequence) : `${delivery.idToken}.${idPrefix}.${sequence}`;
  const token = numeric ? new RegExp(`(?<![\\d.])${delivery.idToken}(?![\\d.])`, 'g') : new RegExp(`"${delivery.idToken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`, 'g');
  const body = delivery.body.replace(token, numeric ? unique : JSON.stringify(unique));
  const request = { method: 'POST' as const, headers: { ...delivery.headers }, query: {}, params: {}, body: undefined, rawBody: Buffer.from(body) };
  const signed = signRequest(request, delivery.signature as SignatureScheme, delivery.secret, Date.now() / 1000);
  const headers = Object.fromEntries(Object.entries(signed.headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { body, headers, events: delivery.events };
}
