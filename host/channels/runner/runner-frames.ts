/**
 * The host ↔ runner wire: frames of a 4-byte big-endian length and that many bytes of JSON, on a
 * socket of their own (the runner's fd 3). Not Node's IPC channel: plugin code can write to that
 * descriptor, and Node's channel throws in the host's event loop on a malformed message and
 * buffers one of any announced length. Here the host bounds each frame, parses it with
 * JSON.parse (which cannot be made to crash) and ends the runner on the first bad one.
 * Byte arrays travel as `{ "$bytes": "<base64>" }`; Buffers come back as Buffers.
 *
 * Loaded inside the runner: erasable TypeScript only.
 */
import { Buffer } from 'node:buffer';
import type { Writable } from 'node:stream';

const HEADER_BYTES = 4;

/** One message as a frame. */
export function encodeFrame(message: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(message, replaceBytes), 'utf8');
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32BE(json.length, 0);
  return Buffer.concat([header, json]);
}

/**
 * Writes messages as frames, those of one turn of the event loop in one system call: each write
 * to the socket wakes the other side, and under load many calls and replies are written in one
 * turn (in `npm run bench -- ingest` the host's writes to the runner were a seventh of its
 * thread's time, one write per webhook). The socket is corked at the first write of a turn and
 * uncorked when the turn's I/O callbacks have run (setImmediate), so a lone message waits for
 * nothing else, and order is kept.
 */
export class FrameWriter {
  readonly #socket: Writable;
  #corked = false;

  constructor(socket: Writable) {
    this.#socket = socket;
  }

  write(message: unknown): void {
    if (!this.#corked) {
      this.#corked = true;
      this.#socket.cork();
      setImmediate(() => this.flush());
    }
    this.#socket.write(encodeFrame(message));
  }

  /** Sends what this turn wrote now: for a frame whose moment matters (a send has started). */
  flush(): void {
    if (!this.#corked) return;
    this.#corked = false;
    this.#socket.uncork();
  }
}

/** A frame's length or content the reader refuses: the peer is broken or hostile. */
export class FrameError extends Error {
  readonly code = 'BOT_ERR_PLUGIN_RUNNER_PROTOCOL';
}

/**
 * Splits a byte stream into messages. `push` throws a FrameError on a frame longer than
 * `maxFrameBytes` (before buffering it) or one that is not JSON; the reader is useless after.
 */
export class FrameReader {
  readonly #maxFrameBytes: number;
  #buffered: Buffer[] = [];
  #bufferedBytes = 0;
  #failed = false;

  constructor(maxFrameBytes: number) {
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** For each message the last `push` returned, in order: its frame's bytes (header included) and the milliseconds its parse took. */
  readonly framed: Array<{ bytes: number; parseMs: number }> = [];

  push(chunk: Buffer): unknown[] {
    this.framed.length = 0;
    if (this.#failed) return [];
    this.#buffered.push(chunk);
    this.#bufferedBytes += chunk.length;
    const messages: unknown[] = [];
    while (this.#bufferedBytes >= HEADER_BYTES) {
      const length = this.#peekLength();
      if (length > this.#maxFrameBytes) this.#fail(`a frame of ${length} bytes exceeds the limit of ${this.#maxFrameBytes}`);
      // Joined only once the whole frame is here: joining at every chunk would copy a large frame
      // again and again, time that grows with the square of its size, on the host's thread.
      if (this.#bufferedBytes < HEADER_BYTES + length) break;
      const data = this.#buffered.length === 1 ? this.#buffered[0]! : Buffer.concat(this.#buffered, this.#bufferedBytes);
      const parseStarted = performance.now();
      messages.push(this.#parse(data.subarray(HEADER_BYTES, HEADER_BYTES + length)));
      this.framed.push({ bytes: HEADER_BYTES + length, parseMs: performance.now() - parseStarted });
      const rest = data.subarray(HEADER_BYTES + length);
      this.#buffered = rest.length > 0 ? [rest] : [];
      this.#bufferedBytes = rest.length;
    }
    return messages;
  }

  /** The length in the header, which may be split across the first chunks. */
  #peekLength(): number {
    const first = this.#buffered[0]!;
    if (first.length >= HEADER_BYTES) return first.readUInt32BE(0);
    return Buffer.concat(this.#buffered, HEADER_BYTES).readUInt32BE(0);
  }

  #parse(json: Buffer): unknown {
    try {
      // A reviver costs a call per value; most frames carry no bytes. A peer that spells the key
      // with an escape (\u0024bytes) gets a plain object, never more than it sent.
      const text = json.toString('utf8');
      return text.includes('"$bytes"') ? JSON.parse(text, reviveBytes) : JSON.parse(text);
    } catch (error) {
      return this.#fail(`a frame is not JSON: ${(error as Error).message}`);
    }
  }

  #fail(reason: string): never {
    this.#failed = true;
    this.#buffered = [];
    throw new FrameError(reason);
  }
}

/** JSON.stringify has already turned a Buffer into `{ type, data }`: look at the holder's own value. */
function replaceBytes(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  if (original instanceof Uint8Array) return { $bytes: Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') };
  return value;
}

function reviveBytes(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const bytes = (value as { $bytes?: unknown }).$bytes;
  return typeof bytes === 'string' && Object.keys(value).length === 1 ? Buffer.from(bytes, 'base64') : value;
}
