import type { Context } from 'koa';
import { AppError } from '../errors/app-error.ts';
import { readRawBody } from './read-raw-body.ts';

/**
 * Reads a JSON request body with a byte limit (413 past it, without reading the rest), requires
 * a JSON content type (415) and valid JSON (400). An empty body reads as `undefined`.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  const raw = await readRawBody(ctx, limitBytes);
  if (raw.length === 0) return undefined;
  if (!ctx.is('application/json', '+json')) {
    throw new AppError('BOT_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    throw new AppError('BOT_ERR_HTTP_MALFORMED_JSON', 'The request body is not valid JSON', undefined, { cause: error });
  }
}
