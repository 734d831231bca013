import type { EgressRequest, EgressResponse, InboundAttachmentRef } from '@bot-ai/api';
import { AppError } from '../errors/app-error.ts';

/** Performs one request under a channel's egress rules (ChannelEgress.performFor). */
export type ChannelFetch = (channel: string, request: EgressRequest) => Promise<EgressResponse>;

/**
 * The bytes of one file a subscriber sent, fetched where the channel said, with the headers it
 * gave, under the channel's egress rules for `sourceId` (its package's `bot.egress` hosts, the
 * source's granted `x-egress` origins, redirects checked hop by hop) and the egress limits of
 * time and size. Refusals and failures reject with their `BOT_ERR_EGRESS_*` code; an answer
 * other than 2xx with BOT_ERR_ATTACHMENT_DOWNLOAD_FAILED, whose message names the origin only
 * (the URL's path and query may carry a token).
 * @example const bytes = await downloadInboundFile(egress.performFor.bind(egress), 'telegram', sourceId, ref);
 */
export async function downloadInboundFile(fetch: ChannelFetch, channel: string, sourceId: string, ref: InboundAttachmentRef): Promise<Uint8Array> {
  const headers = Object.entries(ref.headers ?? {}).map(([name, value]): [string, string] => [name.toLowerCase(), value]);
  const response = await fetch(channel, { url: ref.url, method: 'GET', headers, sourceId, redirect: 'follow' });
  if (response.status < 200 || response.status > 299) {
    throw new AppError('BOT_ERR_ATTACHMENT_DOWNLOAD_FAILED', `${new URL(response.url).origin} answered the download with ${response.status}`, { status: response.status });
  }
  return response.body;
}
