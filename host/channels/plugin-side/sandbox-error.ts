import { SANDBOX_ERROR_CODES, type SandboxErrorCode } from './sandbox-error-codes.ts';

/**
 * An error as plain data. Structured clone (Piscina) keeps only `message` and `stack` of an
 * error, and Comlink's default handler drops `code`, so we cross threads with this shape instead.
 */
export interface SerializedError {
  name: string;
  message: string;
  code?: string;
  stack?: string;
  /** A platform's `Retry-After` (PlatformResponseError), so the host can honour it. */
  retryAfterMs?: number;
  cause?: SerializedError;
}

/**
 * An error of the channel sandbox, with a stable `BOT_ERR_PLUGIN_*` code. When plugin code threw,
 * `cause` is the plugin's error rebuilt with its own `name`, `message` and `code`.
 * @example if (errorCode(error) === 'BOT_ERR_PLUGIN_CALL_TIMEOUT') ctx.status = 503;
 */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  readonly status: number;
  readonly expose: boolean;

  // No parameter properties: workers load this file with Node's type stripping, which has none.
  constructor(code: SandboxErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SandboxError';
    this.code = code;
    this.status = SANDBOX_ERROR_CODES[code].status;
    this.expose = SANDBOX_ERROR_CODES[code].expose;
  }
}

/** The `code` of any error-like value (ours, a plugin's, Node's), recognised without instanceof. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const MAX_CAUSE_DEPTH = 4;

/** Turns anything thrown into plain data; non-errors (a thrown string) become their text. */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) {
    return { name: 'Error', message: String(error) };
  }
  const { name, message, stack, cause } = error as Partial<Error>;
  const code = errorCode(error);
  const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(error),
    ...(code === undefined ? {} : { code }),
    ...(typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? { retryAfterMs } : {}),
    ...(typeof stack === 'string' ? { stack } : {}),
    ...(cause === undefined || depth >= MAX_CAUSE_DEPTH ? {} : { cause: serializeError(cause, depth + 1) }),
  };
}

/** Rebuilds an error on this side: a {@link SandboxError} for our codes, else a plain Error. */
export function deserializeError(plain: SerializedError): Error {
  const options = plain.cause ? { cause: deserializeError(plain.cause) } : undefined;
  const error = isSandboxCode(plain.code)
    ? new SandboxError(plain.code, plain.message, options)
    : Object.assign(new Error(plain.message, options), plain.code === undefined ? {} : { code: plain.code });
  error.name = plain.name;
  if (plain.stack !== undefined) error.stack = plain.stack;
  if (plain.retryAfterMs !== undefined) Object.assign(error, { retryAfterMs: plain.retryAfterMs });
  return error;
}

function isSandboxCode(code: string | undefined): code is SandboxErrorCode {
  return code !== undefined && Object.hasOwn(SANDBOX_ERROR_CODES, code);
}
