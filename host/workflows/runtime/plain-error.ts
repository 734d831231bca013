import type { StepError } from './describe-step-error.ts';
import { CHANNEL_CODE_SUFFIXES, PLAIN_ERRORS, RETRY, type PlainErrorEntry } from './plain-error-table.ts';

/** A run's or step's error as the panel shows it: one sentence, and the technical chain under it. */
export interface ExplainedError extends StepError {
  /** What failed, where, and what to do, in one sentence. */
  summary: string;
  /** The technical messages, outermost first, each said once. */
  chain: string[];
}

const UNKNOWN: PlainErrorEntry = { what: 'of an error the host has no plain words for', todo: "read the details below and the host's log" };

/**
 * Adds the plain sentence and the collapsed chain to a stored error. `task` is the step that
 * failed, when known. A plugin error is explained by the channel's own code (its cause), which
 * says more than "the channel failed". A test run has no event to retry: its advice says to run
 * the test again.
 * @example explainError({ code: 'TELEGRAM_ERR_UNREACHABLE', message: '…' }, 'greet').summary
 * // 'Step "greet" failed because the platform could not be reached; check …'
 */
export function explainError(error: StepError, task?: string | null, mode: 'live' | 'test' = 'live'): ExplainedError {
  const cause = causeOf(error);
  const entry = (cause?.code && plainEntry(cause.code)) || plainEntry(error.code);
  const where = task ? `Step "${task}" failed` : 'The run failed';
  const sentence = entry ? `${where} because ${entry.what}; ${entry.todo}.` : `${where} because ${UNKNOWN.what} (${error.code}); ${UNKNOWN.todo}.`;
  const summary = mode === 'test' ? sentence.replace(RETRY, 'run the test again') : sentence;
  return { ...error, summary, chain: collapseChain([error.message, cause?.message ?? '']) };
}

function plainEntry(code: string): PlainErrorEntry | undefined {
  return PLAIN_ERRORS[code] ?? CHANNEL_CODE_SUFFIXES.find(([suffix]) => code.endsWith(suffix))?.[1];
}

function causeOf(error: StepError): { code?: string; message?: string } | undefined {
  const cause = (error.details as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (!cause || typeof cause !== 'object') return undefined;
  return {
    ...(typeof cause.code === 'string' ? { code: cause.code } : {}),
    ...(typeof cause.message === 'string' ? { message: cause.message } : {}),
  };
}

/**
 * Wrapped errors repeat their causes: "A threw B: X could not be reached: X could not be
 * reached: ECONNREFUSED". Split at each ": " and keep a part only when no part kept so far says
 * it already (a part that contains an earlier one replaces it).
 * @example collapseChain(['A: B could not be reached: B could not be reached: refused']) // ['A', 'B could not be reached', 'refused']
 */
export function collapseChain(messages: readonly string[]): string[] {
  const kept: string[] = [];
  for (const part of messages.flatMap((message) => message.split(': ')).map((text) => text.trim())) {
    if (!part) continue;
    const lower = part.toLowerCase();
    if (kept.some((earlier) => earlier.toLowerCase().includes(lower))) continue;
    const contained = kept.findIndex((earlier) => lower.includes(earlier.toLowerCase()));
    if (contained >= 0) kept[contained] = part;
    else kept.push(part);
  }
  return kept;
}
