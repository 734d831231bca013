import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '../errors/app-error.ts';

/** The body's exact bytes, refused with 413 past the limit (without reading the rest). */
export async function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  if (Number(ctx.get('content-length') || 0) > limitBytes) throw tooLarge(limitBytes);
  try {
    return await getRawBody(ctx.req, { limit: limitBytes });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw tooLarge(limitBytes);
    throw error;
  }
}

// At module level, not a closure per call: under tsx (which keeps function names) each closure
// made costs a call to name it, on every webhook.
function tooLarge(limitBytes: number): AppError {
  return new AppError('BOT_ERR_HTTP_BODY_TOO_LARGE', `The request body exceeds ${limitBytes} bytes`, { limitBytes });
}
