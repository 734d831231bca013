import { hmacSha256Hex } from '../webhook/hmac-signature.ts';
import type { WebhookRequest } from '../webhook/webhook-request.ts';
import type { FixtureRequest, SignatureScheme } from './check-manifest.schema.ts';

/** A request the channel must refuse, and why. */
export interface Forgery {
  name: string;
  request: WebhookRequest;
}

/**
 * The webhook request of a fixture, as the host hands it to a channel: lower-case headers, the
 * exact body bytes (`rawBody` as written, else the JSON of `body`), and `body` parsed from those
 * bytes as the host parses it (JSON, or the fields of a form).
 * @example const req = fixtureToRequest({ method: 'POST', headers: {}, query: {}, body: { ok: true } });
 */
export function fixtureToRequest(fixture: FixtureRequest): WebhookRequest {
  const text = fixture.rawBody ?? (fixture.body === undefined ? '' : JSON.stringify(fixture.body));
  const headers = Object.fromEntries(Object.entries(fixture.headers).map(([name, value]) => [name.toLowerCase(), value]));
  if (text && !headers['content-type']) headers['content-type'] = fixture.rawBody === undefined ? 'application/json' : 'text/plain';
  return withBody({ method: fixture.method, headers, query: { ...fixture.query }, params: {}, body: undefined, rawBody: Buffer.from(text) });
}

/**
 * The request signed as the platform signs it, at `nowSeconds` (Unix time) for timestamped schemes.
 * @example const signed = signRequest(req, { scheme: 'token', header: 'x-token', setting: 'secret' }, 's3cret', Date.now() / 1000);
 */
export function signRequest(request: WebhookRequest, scheme: SignatureScheme, secret: string, nowSeconds: number): WebhookRequest {
  if (scheme.scheme === 'token') return withHeaders(request, { [scheme.header.toLowerCase()]: secret });
  const timestamp = String(Math.floor(nowSeconds));
  const content = scheme.signedContent.replaceAll('{timestamp}', timestamp).replaceAll('{body}', Buffer.from(request.rawBody).toString('utf8'));
  const signature = `${scheme.prefix}${hmacSha256Hex(secret, [content])}`;
  const headers: Record<string, string> = { [scheme.header.toLowerCase()]: signature };
  if (scheme.timestampHeader) headers[scheme.timestampHeader.toLowerCase()] = timestamp;
  return withHeaders(request, headers);
}

/**
 * Requests a channel must refuse with 401: no signature, a signature made with another secret, a
 * body changed after signing (HMAC schemes), and a timestamp past the allowed age (timestamped
 * schemes; signed correctly otherwise).
 * @example for (const forgery of forgeries(req, scheme, secret, now)) expect401(forgery.request);
 */
export function forgeries(request: WebhookRequest, scheme: SignatureScheme, secret: string, nowSeconds: number): Forgery[] {
  const signed = signRequest(request, scheme, secret, nowSeconds);
  const unsigned = withHeaders(signed, { [scheme.header.toLowerCase()]: undefined });
  const list: Forgery[] = [
    { name: 'no signature', request: unsigned },
    { name: 'another secret', request: signRequest(request, scheme, `${secret}-not-it`, nowSeconds) },
  ];
  if (scheme.scheme === 'hmac-sha256') {
    // One more byte of JSON whitespace: the body means the same, the signature no longer holds.
    list.push({ name: 'body changed after signing', request: withBody({ ...signed, rawBody: Buffer.concat([Buffer.from(signed.rawBody), Buffer.from(' ')]) }) });
    if (scheme.timestampHeader && scheme.maxAgeSeconds) {
      list.push({ name: 'stale timestamp', request: signRequest(request, scheme, secret, nowSeconds - scheme.maxAgeSeconds - 60) });
    }
  }
  return list;
}

function withHeaders(request: WebhookRequest, changes: Record<string, string | undefined>): WebhookRequest {
  const headers = { ...request.headers };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return { ...request, headers };
}

/** `body` as the host derives it from the bytes: JSON, a form's fields, or undefined. */
function withBody(request: WebhookRequest): WebhookRequest {
  const text = Buffer.from(request.rawBody).toString('utf8');
  let body: unknown;
  if (/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
    body = Object.fromEntries(new URLSearchParams(text));
  } else {
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = undefined;
    }
  }
  return { ...request, body };
}
