import type { Context } from 'koa';
import { AppError } from '../errors/app-error.ts';
import { readRawBody } from './read-raw-body.ts';
import type { RawBodyOption } from './route-definition.ts';

/**
 * Reads a file sent as the request body: its media type must be one of `option.types` (415,
 * checked before a byte is read) and its size at most `option.maxBytes` (413).
 */
export async function readFileBody(ctx: Context, option: RawBodyOption): Promise<Buffer> {
  if (!option.types.includes(ctx.request.type)) {
    throw new AppError('BOT_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', `Send the body as ${option.types.join(' or ')}`, { accepted: option.types });
  }
  return readRawBody(ctx, option.maxBytes);
}
