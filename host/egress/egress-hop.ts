import type { EgressRequest } from '@bot-ai/api';
import { egressError } from './egress-error.ts';
import { HTTP_TOKEN, outgoingHeaders } from './egress-headers.ts';

/** One request on the way: the first, or one a redirect led to. */
export interface EgressHop {
  url: URL;
  method: string;
  headers: [string, string][];
  body: Uint8Array | undefined;
}

/** Methods the host never sends: tunnels and request echoes. */
const REFUSED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The first hop of a plugin's request, checked field by field: the request comes from plugin
 * code, so nothing about its shape is taken on trust. Throws `BOT_ERR_EGRESS_BAD_URL`,
 * `BOT_ERR_EGRESS_BAD_REQUEST` or `BOT_ERR_EGRESS_REQUEST_TOO_LARGE`.
 * @example const hop = firstHop({ url: 'https://api.example/x', method: 'GET', headers: [] }, 1_048_576);
 */
export function firstHop(request: EgressRequest, maxRequestBytes: number): EgressHop {
  const url = checkUrl(request.url);
  const method = checkMethod(request.method);
  const body = checkBody(request.body, method, maxRequestBytes);
  return { url, method, headers: outgoingHeaders(request.headers), body };
}

/** An absolute http(s) URL without credentials (`user:pass@` would go to the server in clear). */
export function checkUrl(value: unknown): URL {
  if (typeof value !== 'string' || !URL.canParse(value)) throw egressError('BOT_ERR_EGRESS_BAD_URL', 'The request URL is not an absolute URL');
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw egressError('BOT_ERR_EGRESS_BAD_URL', `Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') throw egressError('BOT_ERR_EGRESS_BAD_URL', 'The request URL must not carry credentials');
  return url;
}

/** Methods written in any case that mean the standard one, as fetch normalizes them (`post` is POST). */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

function checkMethod(value: unknown): string {
  if (typeof value !== 'string' || !HTTP_TOKEN.test(value)) throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', 'The request method is not an HTTP token');
  const upper = value.toUpperCase();
  if (REFUSED_METHODS.has(upper)) throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', `The host does not send ${upper} requests`);
  return NORMALIZED_METHODS.has(upper) ? upper : value;
}

function checkBody(body: unknown, method: string, maxBytes: number): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (!(body instanceof Uint8Array)) throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', 'The request body must be bytes (a Uint8Array)');
  if (method === 'GET' || method === 'HEAD') throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', `A ${method} request cannot have a body`);
  if (body.byteLength > maxBytes) {
    throw egressError('BOT_ERR_EGRESS_REQUEST_TOO_LARGE', `The request body has ${body.byteLength} bytes, more than the ${maxBytes} allowed`);
  }
  return body;
}
