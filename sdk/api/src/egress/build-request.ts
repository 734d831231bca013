import { EgressError } from '../errors.ts';

/** A character above U+00FF: header values are bytes, and `Request` refuses to encode one. */
const NOT_A_BYTE = /[^\p{ASCII}\u0080-\u00FF]/u;

/**
 * `new Request(input, init)`, except that a header value holding a character no header can carry
 * (a pasted `…` in a token) rejects with `BOT_ERR_EGRESS_BAD_REQUEST` naming the header: the
 * bare TypeError names none, and channels report it as "could not be reached".
 * @example const request = buildRequest(url, { headers: { authorization: `Bearer ${apiKey}` } });
 */
export function buildRequest(input: string | URL | Request, init?: RequestInit): Request {
  try {
    return new Request(input, init);
  } catch (error) {
    const bad = headerPairs(init?.headers).find(([, value]) => NOT_A_BYTE.test(value));
    if (!bad) throw error;
    const codePoint = `U+${(bad[1].match(NOT_A_BYTE)?.[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    // The value stays out of the message: it is often a credential.
    throw new EgressError('BOT_ERR_EGRESS_BAD_REQUEST', `The request header "${bad[0].toLowerCase()}" has a character a header cannot carry (${codePoint}): header values are bytes`, { cause: error });
  }
}

function headerPairs(headers: RequestInit['headers']): [string, string][] {
  if (headers === undefined || headers instanceof Headers) return [];
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers);
  return pairs.filter((pair): pair is [string, string] => typeof pair[0] === 'string' && typeof pair[1] === 'string');
}
