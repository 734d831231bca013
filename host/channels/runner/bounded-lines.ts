/**
 * Splits a byte stream into lines without ever holding more than one bounded line: a line longer
 * than `maxChars` is handed on at once, cut and marked `…`, and the rest of it, up to the next
 * newline, is dropped unread. UTF-8 is decoded across chunk boundaries; `\n` and `\r\n` end a line.
 * Unlike `readline`, a peer that never writes a newline costs nothing but the scan.
 *
 * @example
 * const lines = new BoundedLines(2_000, (line) => logger.info({}, line));
 * child.stdout.on('data', (chunk: Buffer) => lines.write(chunk)).on('end', () => lines.end());
 */
import { StringDecoder } from 'node:string_decoder';

const NEWLINE = 0x0a;
export const CUT_MARK = '…';

export class BoundedLines {
  readonly #maxChars: number;
  readonly #onLine: (line: string) => void;
  readonly #decoder = new StringDecoder('utf8');
  #line = '';
  /** Bytes of the current line were seen (a last line without a newline still counts at `end()`). */
  #open = false;
  /** The current line was cut and handed on: the rest of it is dropped. */
  #cut = false;

  constructor(maxChars: number, onLine: (line: string) => void) {
    if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
    this.#maxChars = maxChars;
    this.#onLine = onLine;
  }

  write(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.#append(chunk.subarray(start, end));
      this.#finish();
      start = end + 1;
    }
    this.#append(chunk.subarray(start));
  }

  /** The stream ended: a last line without a newline is handed on too. */
  end(): void {
    if (this.#open) this.#finish();
  }

  #append(bytes: Buffer): void {
    if (bytes.length > 0) this.#open = true;
    // Decodes no more than the line has room for (a byte is at most one character), piece by
    // piece: the rest of a line too long is never decoded.
    while (bytes.length > 0 && !this.#cut) {
      const piece = bytes.subarray(0, this.#maxChars - this.#line.length + 1);
      this.#line += this.#decoder.write(piece);
      bytes = bytes.subarray(piece.length);
      if (this.#line.length > this.#maxChars) this.#cutLine(this.#line);
    }
  }

  #cutLine(line: string): void {
    let kept = line.slice(0, this.#maxChars);
    // Never end on half a surrogate pair.
    if (/[\ud800-\udbff]$/.test(kept)) kept = kept.slice(0, -1);
    this.#cut = true;
    this.#line = '';
    this.#onLine(`${kept}${CUT_MARK}`);
  }

  #finish(): void {
    // end() also readies the decoder for the next line; after a cut its bytes are dropped.
    const rest = this.#decoder.end();
    if (!this.#cut) {
      const line = (this.#line + rest).replace(/\r$/, '');
      if (line.length > this.#maxChars) this.#cutLine(line);
      else this.#onLine(line);
    }
    this.#line = '';
    this.#open = false;
    this.#cut = false;
  }
}
