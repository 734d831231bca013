import { finished, pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { egressError } from './egress-error.ts';

/** fetch's limit on stacked codings: each costs a decoder. */
const MAX_CODINGS = 5;
/** Statuses whose answer has no body, whatever its headers say. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Flushing on every write and at the end makes a decoder as lenient as `fetch`'s: a stream cut
 * short, or empty, yields what it holds instead of failing as truncated.
 */
const ZLIB_FLUSH = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };
/** A window of 8 MB at most (zstd's own default limit), so a frame cannot claim gigabytes of memory. */
const ZSTD_OPTIONS = { ...ZLIB_FLUSH, params: { [zlib.constants.ZSTD_d_windowLogMax]: 23 } };

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(ZLIB_FLUSH),
  'x-gzip': () => zlib.createGunzip(ZLIB_FLUSH),
  deflate: () => new InflateEitherForm(),
  br: () => zlib.createBrotliDecompress(BROTLI_FLUSH),
  zstd: () => zlib.createZstdDecompress(ZSTD_OPTIONS),
};

/** Whether an answer to `method` with `status` carries a body at all. */
export function hasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && !NULL_BODY_STATUSES.has(status);
}

/**
 * An answer's body with its content codings undone, last applied first, as `fetch` decodes it:
 * gzip, deflate (with or without its zlib header), br and zstd, leniently. A coding it does not
 * know leaves the body as it came; more than five are refused (`BOT_ERR_EGRESS_FAILED`). A
 * decoding error surfaces on the returned stream, and destroying it closes the connection.
 * @example const body = decodedBody(answer.body, answer.headers['content-encoding']);
 */
export function decodedBody(body: Readable, contentEncoding: string | string[] | undefined): Readable {
  if (contentEncoding === undefined) return body;
  const codings = [contentEncoding].flat().join(',').toLowerCase().split(',').map((coding) => coding.trim()).filter((coding) => coding !== '');
  if (codings.length > MAX_CODINGS) {
    throw egressError('BOT_ERR_EGRESS_FAILED', `The answer stacks ${codings.length} content codings, more than the ${MAX_CODINGS} decoded`);
  }
  if (codings.length === 0 || codings.some((coding) => !Object.hasOwn(DECODERS, coding))) return body;
  const decoders = codings.reverse().map((coding) => DECODERS[coding]!());
  // pipeline passes an error on to the last decoder, which the reader sees; the callback has nothing to add.
  pipeline([body, ...decoders], () => {});
  return decoders.at(-1)!;
}

/**
 * `deflate` as servers send it: RFC 9110 means a zlib stream, but some send raw deflate. The
 * first byte tells them apart (a zlib header's low nibble is 8, deflate's method), as in fetch.
 */
class InflateEitherForm extends Transform {
  #inflate: zlib.Inflate | zlib.InflateRaw | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.#inflate) {
      if (chunk.length === 0) return callback();
      this.#inflate = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(ZLIB_FLUSH) : zlib.createInflateRaw(ZLIB_FLUSH);
      const inflate = this.#inflate;
      // Backpressure: the inflater waits while what it gave is unread, so a bomb's output is not
      // buffered here ahead of the reader that counts it.
      inflate.on('data', (data: Buffer) => {
        if (!this.push(data)) inflate.pause();
      });
      this.#inflate.on('error', (error) => this.destroy(error));
    }
    this.#inflate.write(chunk, callback);
  }

  override _read(size: number): void {
    this.#inflate?.resume();
    super._read(size);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#inflate) return callback();
    // `finished`, not a wait for 'end': the inflater has ended already when bytes followed the
    // end of the deflate stream (a trailing newline), and a missed 'end' would hang the answer.
    finished(this.#inflate, { writable: false }, (error) => callback(error));
    this.#inflate.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#inflate?.destroy();
    callback(error);
  }
}
