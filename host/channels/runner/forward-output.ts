/**
 * A runner's stdout and stderr go to the host's log, line by line, each line cut to a bounded
 * length and at most MAX_LINES_PER_SECOND of them a second for both streams together (plugin
 * code can write anything there, as much as it likes: a line that never ends, a flood of
 * lines). The host holds at most one bounded line per stream. The last stderr lines are kept,
 * dropped from the log or not: when a runner dies, they say why (Node's "heap out of memory",
 * an uncaught error).
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { SandboxLogger } from '../calls/sandbox-logger.ts';
import { BoundedLines } from './bounded-lines.ts';
import { LineRateLimit } from '../../logging/line-rate-limit.ts';

export const MAX_LINE_CHARS = 2_000;
export const MAX_LINES_PER_SECOND = 200;
const TAIL_LINES = 20;

export function forwardOutput(child: ChildProcess, logger: SandboxLogger, fields: Record<string, unknown>, onStderrTail: (tail: string[]) => void): void {
  const limit = new LineRateLimit(MAX_LINES_PER_SECOND, (count) =>
    logger.warn({ ...fields, dropped: count }, `${count} lines of the runner's output dropped (more than ${MAX_LINES_PER_SECOND} a second)`),
  );
  child.once('close', () => limit.close());
  if (child.stdout) {
    readLines(child.stdout, (line) => {
      if (limit.allow()) logger.info({ ...fields, stream: 'stdout' }, line);
    });
  }
  if (child.stderr) {
    const tail: string[] = [];
    readLines(child.stderr, (line) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      onStderrTail(tail);
      if (limit.allow()) logger.warn({ ...fields, stream: 'stderr' }, line);
    });
  }
}

function readLines(stream: Readable, onLine: (line: string) => void): void {
  const lines = new BoundedLines(MAX_LINE_CHARS, onLine);
  stream.on('data', (chunk: Buffer) => lines.write(chunk));
  stream.once('end', () => lines.end());
  // A failed read ends the stream, never the host; the runner's end is reported by its process.
  stream.on('error', () => lines.end());
}
