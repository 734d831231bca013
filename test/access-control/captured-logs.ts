import type { Logger } from 'pino';
import { createLogger } from '../../host/logging/create-logger.ts';

export interface CapturedLogs {
  /** The host's own logger (its redaction included), at the most talkative level. */
  logger: Logger;
  /** Every JSON line written so far. */
  lines(): string[];
}

/**
 * The logger main.ts builds, writing into memory instead of stdout: what a test finds here is
 * exactly what an operator's log collector would receive.
 */
export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const destination = { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) };
  return { logger: createLogger({ level: 'trace', pretty: false }, destination), lines: () => [...lines] };
}
