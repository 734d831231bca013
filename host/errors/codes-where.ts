import { ERROR_CODES, type ErrorCode } from './error-codes.ts';
import type { ErrorCodeClass, ErrorCodeEntry } from './error-code-entry.ts';

/**
 * The codes of the error table in one class, read from the table's flags.
 * @example const NOT_DELIVERED = codesWhere('notDelivered'); NOT_DELIVERED.has(errorCode(error) ?? '')
 */
export function codesWhere(flag: ErrorCodeClass): ReadonlySet<string> {
  const entries = Object.entries(ERROR_CODES) as [ErrorCode, ErrorCodeEntry][];
  return new Set(entries.filter(([, entry]) => entry[flag] === true).map(([code]) => code));
}
