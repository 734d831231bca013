import { egressError } from './egress-error.ts';

/** The parts of a fetch Response the reader needs (undici's and the global one both fit). */
export interface StreamedResponse {
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

/**
 * The whole (decoded) body, read chunk by chunk and abandoned as soon as it passes `maxBytes`:
 * cancelling the stream closes the connection, so a huge or endless answer (or a compression
 * bomb) costs at most `maxBytes` of memory. Throws `BOT_ERR_EGRESS_RESPONSE_TOO_LARGE`.
 * @example const body = await readLimitedBody(response, 10_485_760, url.origin);
 */
export async function readLimitedBody(response: StreamedResponse, maxBytes: number, origin: string): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array(0);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw tooLarge(origin, maxBytes);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(origin, maxBytes);
    }
    chunks.push(read.value);
  }
  return concat(chunks, total);
}

/** One buffer of its own, never a view into a shared pool: it may be moved to another thread. */
function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function tooLarge(origin: string, maxBytes: number): Error {
  return egressError('BOT_ERR_EGRESS_RESPONSE_TOO_LARGE', `The answer of ${origin} is larger than the ${maxBytes} bytes allowed`);
}
