import type { InboundAttachment } from '@bot-ai/api';
import { slackFileSchema, type SlackFile } from './slack-payload.schema.ts';

/** File modes Slack uses for files the app cannot read (deleted, or beyond a free plan's history). */
const UNREADABLE_MODES: ReadonlySet<string> = new Set(['tombstone', 'hidden_by_limit']);

/**
 * The files of a message the app can read, as attachments: the Slack file id as `platformId`
 * (the download URL is looked up later, by `getMessageAttachments`), the name and the type.
 * Entries in an unexpected shape and unreadable files are skipped.
 * @example toInboundAttachments([{ id: 'F0123ABCD', name: 'photo.jpg', mimetype: 'image/jpeg' }]) // [{ kind: 'image', platformId: 'F0123ABCD', … }]
 */
export function toInboundAttachments(files: readonly unknown[] | null | undefined): InboundAttachment[] {
  return readableSlackFiles(files).map((file) => {
    const name = file.name || file.title || undefined;
    return {
      kind: kindOfMimeType(file.mimetype),
      platformId: file.id,
      ...(name ? { name } : {}),
      ...(file.mimetype ? { mimeType: file.mimetype } : {}),
    };
  });
}

/**
 * The files of a message that parse and that the app can read, in order.
 * @example readableSlackFiles(event.files).map((file) => file.id)
 */
export function readableSlackFiles(files: readonly unknown[] | null | undefined): SlackFile[] {
  return (files ?? []).flatMap((raw) => {
    const file = slackFileSchema.safeParse(raw).data;
    return file && !UNREADABLE_MODES.has(file.mode ?? '') ? [file] : [];
  });
}

/**
 * The attachment kind of a MIME type: `image/*`, `audio/*`, `video/*`, else `file`.
 * @example kindOfMimeType('video/mp4') // 'video'
 */
export function kindOfMimeType(mimeType: string | null | undefined): InboundAttachment['kind'] {
  const top = (mimeType ?? '').split('/')[0]?.toLowerCase();
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'file';
}
