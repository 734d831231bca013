/**
 * Worker side: where the host downloads the files of an inbound attachment message. The plugin
 * may look them up on the platform first (through `fetch`, under the served source's rules);
 * what it answers is checked here, so the host only ever gets well-formed references.
 *
 * Loaded without tsx (Node's own type stripping): erasable TypeScript only.
 */
import { rebuildInboundEvent, type ChannelSource, type HttpChannelHandler, type InboundAttachmentRef, type PlainInboundEvent } from '@bot-ai/api';
import { z } from 'zod';
import { callPlugin } from './call-plugin.ts';
import { SandboxError } from './sandbox-error.ts';

/** Unknown keys are dropped: only these cross to the host. */
const attachmentRefsSchema = z.array(
  z.object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    name: z.string().optional(),
    mimeType: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
);

/**
 * The download references of `plain`'s files, one per attachment, in order.
 * @example await messageAttachmentsTask(handler, event, source) // [{ url: 'https://files.example/1', name: 'a.pdf' }]
 */
export async function messageAttachmentsTask(
  handler: Pick<HttpChannelHandler, 'getMessageAttachments'>,
  plain: PlainInboundEvent,
  source: ChannelSource,
): Promise<InboundAttachmentRef[]> {
  const event = rebuildInboundEvent(plain).bindSource(source);
  const refs = await callPlugin('getMessageAttachments', () => handler.getMessageAttachments(event));
  const parsed = attachmentRefsSchema.safeParse(refs);
  if (!parsed.success) {
    throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `getMessageAttachments() must return an array of { url, name?, mimeType?, headers? }: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data.map(withoutUndefined);
}

/** Optional keys left out rather than `undefined`: the answer is compared and stored as JSON. */
function withoutUndefined(ref: InboundAttachmentRef): InboundAttachmentRef {
  return Object.fromEntries(Object.entries(ref).filter(([, value]) => value !== undefined)) as unknown as InboundAttachmentRef;
}
