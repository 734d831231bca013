/**
 * A runner's stdout and stderr go to the host's log, line by line and cut to a bounded length
 * (plugin code can write anything there), and the last stderr lines are kept: when a runner
 * dies, they say why (Node's "heap out of memory", an uncaught error).
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { SandboxLogger } from '../sandbox/expose-host-bridge.ts';

const MAX_LINE_CHARS = 2_000;
const TAIL_LINES = 20;

export function forwardOutput(child: ChildProcess, logger: SandboxLogger, fields: Record<string, unknown>, onStderrTail: (tail: string[]) => void): void {
  const tail: string[] = [];
  if (child.stdout) createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => logger.info({ ...fields, stream: 'stdout' }, cut(line)));
  if (child.stderr) {
    createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
      tail.push(cut(line));
      if (tail.length > TAIL_LINES) tail.shift();
      onStderrTail(tail);
      logger.warn({ ...fields, stream: 'stderr' }, cut(line));
    });
  }
}

function cut(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}
