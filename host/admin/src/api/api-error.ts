/** An error answer of the admin API: `{ error: { code, message, details } }` with its HTTP status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** The field the server blames (`details.field`, or the first validation issue's path). */
  get field(): string | undefined {
    const details = this.details as { field?: unknown; issues?: { path?: unknown }[] } | undefined;
    if (typeof details?.field === 'string') return details.field;
    const path = details?.issues?.[0]?.path;
    return typeof path === 'string' && path !== '' ? path : undefined;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError';
}

/** A message to show for any failure. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
