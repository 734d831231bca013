import { errorCode, messageOf } from '../channels/plugin-side/sandbox-error.ts';

// The primitives live plugin-side because the runner bundle needs them and may only import
// plugin-side code; the host takes them from here.
export { errorCode, messageOf };

/** An error as a log line or a stored failure shows it: a stable code and a message. */
export interface ErrorDescription {
  code: string;
  message: string;
}

/**
 * The code and message of anything thrown; `fallbackCode` when it carries no code of its own.
 * @example describeError(new Error('boom'), 'BOT_ERR_INTERNAL') // { code: 'BOT_ERR_INTERNAL', message: 'boom' }
 */
export function describeError(error: unknown, fallbackCode: string): ErrorDescription {
  return { code: errorCode(error) ?? fallbackCode, message: messageOf(error) };
}
