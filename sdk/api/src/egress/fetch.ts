import { EgressError } from '../errors.ts';
import { currentSourceId, installedHostServices } from '../services/host-services.ts';
import { buildRequest } from './build-request.ts';
import { toEgressRequest } from './to-egress-request.ts';
import { toResponse } from './to-response.ts';

const EGRESS_CODE = /^BOT_ERR_EGRESS_[A-Z_]+$/;

/**
 * WHATWG `fetch`, performed by the bot host on the plugin's behalf: a plugin has no network of
 * its own. The host allows only the hosts the package declares (`"bot": { "egress": [...] }` in
 * its package.json, public addresses only) and the exact origins of the serving source's
 * settings marked `x-egress` (such as an `api_url`); anything else rejects with an
 * {@link EgressError} naming the reason in its `code`. Takes what `fetch` takes (string, URL or
 * Request; any headers and body form; `signal`; `redirect`) and resolves to a real `Response`.
 * Outside a host (a unit test), it rejects with `BOT_ERR_EGRESS_UNAVAILABLE` unless host
 * services were installed with `installHostServices`: it never falls back to the global fetch.
 * @example
 * import { fetch } from '@bot-ai/api';
 * const response = await fetch(`${api_url}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
 */
export async function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = buildRequest(input, init);
  request.signal.throwIfAborted();
  const perform = installedHostServices()?.fetch;
  if (!perform) {
    throw new EgressError('BOT_ERR_EGRESS_UNAVAILABLE', 'No bot host is here to perform fetch(); in tests, install host services with installHostServices()');
  }
  const plain = await toEgressRequest(request, currentSourceId());
  const answer = await untilAborted(perform(plain), request.signal).catch((error: unknown) => {
    throw request.signal.aborted ? request.signal.reason : toEgressError(error);
  });
  return toResponse(answer);
}

/**
 * Rejects with the signal's reason as soon as it aborts, as `fetch` does. The host's request
 * still runs to its own time limit: a signal cannot cross to the host as data.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The host's egress code when it gave one, else `BOT_ERR_EGRESS_FAILED`; the original is the cause. */
function toEgressError(error: unknown): EgressError {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (typeof code === 'string' && EGRESS_CODE.test(code)) return new EgressError(code, text, { cause: error });
  return new EgressError('BOT_ERR_EGRESS_FAILED', `The host could not perform the request: ${text}`, { cause: error });
}
