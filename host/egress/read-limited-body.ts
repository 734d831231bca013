import { egressError } from './egress-error.ts';

/** An answer's body as the connection pool streams it (undici's `request`). */
export interface StreamedBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Abandons an answer's body: the connection closes rather than read what nobody wants. Destroyed
 * before its end, undici's body emits an abort error, which is ours and expected, not a fault.
 */
export function discardBody(body: StreamedBody): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * The whole (decoded) body, read chunk by chunk and abandoned as soon as it passes `maxBytes`:
 * destroying the stream closes the connection, so a huge or endless answer (or a compression
 * bomb) costs at most `maxBytes` of memory. `declaredBytes` is the answer's content-length, if it
 * gave one for the bytes as they come (not decoded). Throws `BOT_ERR_EGRESS_RESPONSE_TOO_LARGE`.
 * @example const body = await readLimitedBody(answer.body, Number(answer.headers['content-length']), 10_485_760, url.origin);
 */
export async function readLimitedBody(body: StreamedBody, declaredBytes: number, maxBytes: number, origin: string): Promise<Uint8Array> {
  if (declaredBytes > maxBytes) {
    discardBody(body);
    throw tooLarge(origin, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      discardBody(body);
      throw tooLarge(origin, maxBytes);
    }
    chunks.push(chunk);
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
