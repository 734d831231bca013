import { plainHttpUrl } from '../http/plain-http-url.ts';
import { egressError } from './egress-error.ts';
import { BODY_HEADERS, CREDENTIAL_HEADERS } from './egress-headers.ts';
import type { EgressHop } from './egress-hop.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** True for the statuses `fetch` follows. */
export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The hop a redirect leads to, as `fetch` makes it: a 303 (and a 301/302 after a POST) turns
 * into a GET without body; leaving the origin drops the credentials headers. Whether the new
 * destination is allowed is for the caller to check, as for any hop. A Location that is not an
 * http(s) URL is refused (`BOT_ERR_EGRESS_REDIRECT_REFUSED`).
 * @example const next = redirectHop(hop, 302, '/login');
 */
export function redirectHop(hop: EgressHop, status: number, location: string): EgressHop {
  const url = plainHttpUrl(location, hop.url);
  if (!url) {
    // Parsed again only to say why.
    const protocol = URL.parse(location, hop.url)?.protocol;
    throw egressError('BOT_ERR_EGRESS_REDIRECT_REFUSED', protocol ? `${hop.url.origin} redirected to a ${protocol} URL, which is not fetched` : `${hop.url.origin} redirected to an unreadable Location`);
  }
  const toGet = status === 303 ? hop.method !== 'HEAD' : (status === 301 || status === 302) && hop.method === 'POST';
  let headers = hop.headers;
  if (toGet) headers = headers.filter(([name]) => !BODY_HEADERS.has(name));
  if (url.origin !== hop.url.origin) headers = headers.filter(([name]) => !CREDENTIAL_HEADERS.has(name));
  return { url, method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body };
}
