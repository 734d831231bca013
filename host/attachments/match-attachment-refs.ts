import type { InboundAttachment, InboundAttachmentRef } from '@bot-ai/api';

/**
 * Which download reference belongs to which file of the message, by position: one reference per
 * file, in order; or, as the SDK's default `getMessageAttachments()` answers, one per file that
 * has a `url` of its own, in order. Any other count cannot be matched safely (a file could get
 * another file's bytes), so then no file gets one. An entry is undefined when its file has none.
 * @example matchAttachmentRefs([{ kind: 'image', platformId: 'p1' }], [{ url: 'https://files.example/p1' }]) // [{ url: … }]
 */
export function matchAttachmentRefs(files: readonly InboundAttachment[], refs: readonly InboundAttachmentRef[]): (InboundAttachmentRef | undefined)[] {
  if (refs.length === files.length) return [...refs];
  const withUrl = files.filter((file) => file.url !== undefined).length;
  if (refs.length !== withUrl) return files.map(() => undefined);
  let next = 0;
  return files.map((file) => (file.url === undefined ? undefined : refs[next++]));
}
