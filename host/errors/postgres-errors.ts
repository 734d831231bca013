/** PostgreSQL SQLSTATE codes we react to. */
export const PG_UNIQUE_VIOLATION = '23505';

/** Errors that mean the server is unreachable or going away, not that our query was wrong. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

export function pgErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The constraint a unique violation hit, e.g. `memory_definitions_slug_unique`. */
export function pgConstraint(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

/** Whether `error` is a unique violation of the named constraint or unique index. */
export function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  return pgErrorCode(error) === PG_UNIQUE_VIOLATION && pgConstraint(error) === constraint;
}

export function isConnectionError(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code && CONNECTION_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|Knex: Timeout acquiring a connection/.test(message);
}

/**
 * A statement the server aborted to break a lock cycle or a serialization conflict: nothing it
 * did was kept, and the same statement may well pass when sent again.
 */
export function isConflictAbort(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === '40P01' || code === '40001';
}
