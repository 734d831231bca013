import type { EgressResponse } from '../services/host-services.ts';

/** Statuses whose response has no body: `new Response()` refuses one for them. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A real global `Response` built from the host's answer, with `url` and `redirected` as the
 * host saw them (the constructor cannot set those, so they are defined on the instance).
 * @example const response = toResponse({ status: 200, statusText: 'OK', headers: [], body: new Uint8Array(), url, redirected: false });
 */
export function toResponse(answer: EgressResponse): Response {
  const body = NULL_BODY_STATUSES.has(answer.status) ? null : new Uint8Array(answer.body);
  const response = new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  Object.defineProperties(response, { url: { value: answer.url }, redirected: { value: answer.redirected } });
  return response;
}
