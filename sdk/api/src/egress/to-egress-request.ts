import type { EgressRequest } from '../services/host-services.ts';

/**
 * A `Request` as plain data for the host. The body, whatever its form (string, bytes,
 * URLSearchParams, FormData, Blob, stream), is read into bytes here; the `Request` already
 * added the content type such bodies imply.
 * @example const plain = await toEgressRequest(new Request(url, { method: 'POST', body: 'hi' }), source.id);
 */
export async function toEgressRequest(request: Request, sourceId: string | undefined): Promise<EgressRequest> {
  const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  return {
    url: request.url,
    method: request.method,
    headers: [...request.headers],
    ...(body === undefined ? {} : { body }),
    redirect: request.redirect,
    ...(sourceId === undefined ? {} : { sourceId }),
  };
}
