import { ChannelError, z, type InboundAttachment, type InboundAttachmentRef } from '@bot-ai/api';
import { callWhatsAppApi, type WhatsAppApi } from './call-whatsapp-api.ts';

/** The media lookup answer: `{ messaging_product, url, mime_type, sha256, file_size, id }`. */
const mediaAnswerSchema = z.looseObject({ url: z.url(), mime_type: z.string().optional() });

/**
 * Where the host downloads one inbound file: `GET {api_base_url}/{api_version}/{media_id}` gives
 * a short-lived URL (on lookaside.fbsbx.com) that itself needs the bearer token, so the token goes
 * in the returned headers, never in the event. Throws as `callPlatform` does, and
 * `WHATSAPP_ERR_NO_MEDIA_URL` when the answer has no URL.
 * @example const ref = await lookupWhatsAppMedia(api, { kind: 'image', platformId: '1479537139650973' }, 10_000);
 */
export async function lookupWhatsAppMedia(api: WhatsAppApi, attachment: InboundAttachment, timeoutMs: number): Promise<InboundAttachmentRef> {
  const mediaId = attachment.platformId;
  if (!mediaId) throw new ChannelError('WHATSAPP_ERR_NO_MEDIA_ID', 'The attachment has no WhatsApp media id');
  const parsed = mediaAnswerSchema.safeParse(await callWhatsAppApi(api, 'GET', [mediaId], undefined, timeoutMs));
  if (!parsed.success) throw new ChannelError('WHATSAPP_ERR_NO_MEDIA_URL', `The Cloud API answered the lookup of media ${mediaId} without a URL`);
  const mimeType = parsed.data.mime_type ?? attachment.mimeType;
  return {
    url: parsed.data.url,
    ...(attachment.name ? { name: attachment.name } : {}),
    ...(mimeType ? { mimeType } : {}),
    headers: { authorization: `Bearer ${api.access_token}` },
  };
}
