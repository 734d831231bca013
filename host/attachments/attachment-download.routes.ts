import type { Context } from 'koa';
import { AppError } from '../errors/app-error.ts';
import type { RawRouteDefinition } from '../http/route-definition.ts';
import { z } from 'zod';
import type { SourceRow } from '../sources/source.ts';
import type { AttachmentService } from './attachment-service.ts';
import { WEBHOOK_PATH_PREFIX } from '../webhooks/webhook.routes.ts';

export interface AttachmentDownloadDeps {
  sources: { findByRef(ref: string): Promise<SourceRow | undefined> };
  attachments: AttachmentService;
}

/** Four segments after /api/webhook, so it neither shadows nor is shadowed by `/:sourceRef/:workflowId`. */
export const ATTACHMENT_DOWNLOAD_PATH = `${WEBHOOK_PATH_PREFIX}:sourceRef/download/:name`;

/**
 * `GET /api/webhook/:sourceRef/download/:name?t=<token>`: public (the signed token is the
 * credential), raw bytes. Unknown source → 404; a token that is missing,
 * invalid, expired, tampered with or bound to another source or name → 403 with one generic
 * message; then a missing file → 404 (so file names cannot be probed without a token).
 */
export function attachmentDownloadRoutes(deps: AttachmentDownloadDeps): RawRouteDefinition[] {
  return [{
    method: 'GET', path: ATTACHMENT_DOWNLOAD_PATH, operationId: 'downloadAttachment', tag: 'webhooks', permission: null,
    summary: 'A file a workflow sent or a subscriber sent, through the signed link the host made for it',
    params: z.object({ sourceRef: z.string(), name: z.string().describe('The stored file name') }),
    query: z.object({ t: z.string().describe('The signed download token of the link') }),
    responses: {
      200: { description: 'The bytes, as a download', type: 'application/octet-stream' },
      403: { description: 'The token is missing, invalid, expired, or made for another file' },
      404: { description: 'No such source, or no such file' },
    },
    answer: (ctx) => download(ctx, deps),
  }];
}

async function download(ctx: Context, { sources, attachments }: AttachmentDownloadDeps): Promise<void> {
  // Set first, so error answers are not cached either.
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  const source = await sources.findByRef(ctx.params.sourceRef);
  if (!source) throw new AppError('BOT_ERR_WEBHOOK_SOURCE_UNKNOWN', 'Unknown webhook');
  const name: string = ctx.params.name;
  if (!attachments.tokens.grants(ctx.query.t, { sourceId: source.id, name })) {
    throw new AppError('BOT_ERR_ATTACHMENT_TOKEN_INVALID', 'The download link is not valid');
  }
  const file = await attachments.store.open(source.id, name);
  if (!file) throw new AppError('BOT_ERR_ATTACHMENT_NOT_FOUND', 'No such attachment');
  // Never guessed from the name or the bytes: a download, not a page of the host's origin.
  ctx.type = 'application/octet-stream';
  // `filename` is plain ASCII (others → `_`) for old clients; `filename*` (RFC 6266) has the real name.
  ctx.attachment(name, { fallback: name.replace(/[^\x20-\x7e]/g, '_') });
  ctx.length = file.size;
  ctx.body = file.stream;
}
