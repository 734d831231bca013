import { egressError } from './egress-error.ts';

/** An HTTP token (RFC 9110), what header names and methods are made of. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\r\n\0]/;
/** A character above U+00FF: header values are bytes, and fetch refuses to encode one. */
const NOT_A_BYTE = /[^\p{ASCII}\u0080-\u00FF]/u;

/**
 * Headers the host sets itself: the connection is the host's (framing, keep-alive, upgrades),
 * and Host must stay the name that was checked, or a plugin could reach another virtual host
 * behind an allowed address.
 */
const HOST_OWNED = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'content-length', 'expect', 'http2-settings']);

/** What describes a body: dropped when a redirect turns the request into a GET. */
export const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location']);

/** Credentials for one origin: dropped when a redirect leaves it, as `fetch` does. */
export const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * A plugin's header pairs, checked (`BOT_ERR_EGRESS_BAD_REQUEST` for a malformed name or
 * value), lower-cased, without the headers the host owns.
 * @example outgoingHeaders([['Authorization', 'Bearer k'], ['Host', 'elsewhere']]) // [['authorization', 'Bearer k']]
 */
export function outgoingHeaders(pairs: unknown): [string, string][] {
  if (!Array.isArray(pairs)) throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', 'The request headers must be a list of [name, value] pairs');
  return pairs.map(checkHeader).filter(([name]) => !HOST_OWNED.has(name));
}

function checkHeader(pair: unknown): [string, string] {
  const [name, value] = Array.isArray(pair) ? (pair as unknown[]) : [];
  if (typeof name !== 'string' || !HTTP_TOKEN.test(name)) {
    throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', `A request header has an invalid name: ${JSON.stringify(String(name)).slice(0, 80)}`);
  }
  if (typeof value !== 'string' || BAD_VALUE.test(value)) {
    throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', `The request header "${name}" has an invalid value`);
  }
  const wide = NOT_A_BYTE.exec(value);
  if (wide) {
    // Named here, or the connection refuses it as a bare TypeError that reads as "could not be
    // reached"; the value itself stays out of the message: it is often a credential.
    const codePoint = `U+${(wide[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw egressError('BOT_ERR_EGRESS_BAD_REQUEST', `The request header "${name}" has a character a header cannot carry (${codePoint}): header values are bytes`);
  }
  return [name.toLowerCase(), value];
}
