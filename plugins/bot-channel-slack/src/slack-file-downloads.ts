import { ChannelError, z, type ChannelInboundEvent, type InboundAttachmentRef, type StdIncomingMessage } from '@bot-ai/api';
import { callSlackApi } from './call-slack-api.ts';
import { readableSlackFiles } from './slack-inbound-files.ts';
import { slackFileSchema, type SlackFile } from './slack-payload.schema.ts';

/** How the files are reached: the source's API and token. */
export interface SlackFileAccess {
  apiBaseUrl: string;
  botToken: string;
  timeoutMs: number;
}

const filesInfoSchema = z.looseObject({ file: slackFileSchema });

/**
 * Where the host downloads each file of an attachment message, in order: the file's
 * `url_private_download` from the stored event, with the bot token as a Bearer header (Slack's
 * file URLs need it). A file the event holds no URL for (a Slack Connect file, `file_access:
 * 'check_file_info'`) is looked up with `files.info`. Throws when a file has no URL even then.
 * @example await slackFileDownloads(event, { apiBaseUrl, botToken, timeoutMs }) // [{ url: 'https://files.slack.com/…', headers: { authorization: 'Bearer xoxb-…' } }]
 */
export async function slackFileDownloads(event: ChannelInboundEvent, access: SlackFileAccess): Promise<InboundAttachmentRef[]> {
  const message = (event as { message?: StdIncomingMessage }).message;
  if (message?.type !== 'attachment') return [];
  const rawFiles = (event.getRawEvent<{ event?: { files?: unknown } } | undefined>()?.event?.files ?? []) as unknown[];
  const known = new Map(readableSlackFiles(Array.isArray(rawFiles) ? rawFiles : []).map((file) => [file.id, file]));
  const headers = { authorization: `Bearer ${access.botToken}` };
  const refs: InboundAttachmentRef[] = [];
  for (const attachment of message.data.attachments) {
    const fileId = attachment.platformId;
    if (!fileId) throw new ChannelError('SLACK_ERR_FILE_UNAVAILABLE', 'An attachment has no Slack file id');
    const file = downloadUrl(known.get(fileId)) ? known.get(fileId)! : await lookUpFile(fileId, access);
    const url = downloadUrl(file);
    if (!url) throw new ChannelError('SLACK_ERR_FILE_UNAVAILABLE', `Slack gives no download URL for the file ${fileId}`);
    const name = attachment.name ?? file.name ?? undefined;
    const mimeType = attachment.mimeType ?? file.mimetype ?? undefined;
    refs.push({ url, ...(name ? { name } : {}), ...(mimeType ? { mimeType } : {}), headers });
  }
  return refs;
}

function downloadUrl(file: SlackFile | undefined): string | undefined {
  return file?.url_private_download || file?.url_private || undefined;
}

/** `files.info?file=F…` (scope `files:read`). */
async function lookUpFile(fileId: string, access: SlackFileAccess): Promise<SlackFile> {
  const answer = await callSlackApi({ ...access, method: 'files.info', query: { file: fileId } });
  const parsed = filesInfoSchema.safeParse(answer);
  if (!parsed.success) throw new ChannelError('SLACK_ERR_BAD_ANSWER', `Slack answered files.info for ${fileId} without the file`);
  return parsed.data.file;
}
