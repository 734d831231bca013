import type { EgressRequest, EgressResponse } from '../services/host-services.ts';

/**
 * A stand-in for the host's egress service, **for plugin tests only**: it performs the request
 * with the global `fetch` (so `nock` intercepts it) and applies none of the host's rules. The
 * host never installs it.
 * @example installHostServices({ getAttachmentPublicUrl: async () => 'https://host.test/file', fetch: directFetchService });
 */
export async function directFetchService(request: EgressRequest): Promise<EgressResponse> {
  const response = await globalThis.fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    redirect: request.redirect ?? 'follow',
    ...(request.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(request.timeoutMs) }),
  });
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: new Uint8Array(await response.arrayBuffer()),
    url: response.url,
    redirected: response.redirected,
  };
}
