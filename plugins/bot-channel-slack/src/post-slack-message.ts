import { ChannelError } from '@bot-ai/api';
import { callSlackApi } from './call-slack-api.ts';
import type { SlackOutgoingMessage } from './slack-encoder.ts';

/** One message to post. */
export interface SlackPostRequest {
  apiBaseUrl: string;
  botToken: string;
  /** The conversation: `D…`, `C…`, `G…`, or a user id (the app's DM with them). */
  channel: string;
  /** The thread to answer in, when the subscriber wrote in one. */
  threadTs?: string | undefined;
  message: SlackOutgoingMessage;
  timeoutMs: number;
}

/**
 * Posts one message with `chat.postMessage` and returns its `ts`, Slack's id of the message
 * within the channel. Throws what `callSlackApi` throws (`SlackApiError` for `ok: false`,
 * `PlatformResponseError` for an HTTP error or a 429 with its `Retry-After`), and a
 * `ChannelError` for a successful answer without a `ts`.
 * @example const ts = await postSlackMessage({ apiBaseUrl, botToken, channel: 'D024BE91L', message: { text: 'Hi' }, timeoutMs: 10_000 });
 */
export async function postSlackMessage(request: SlackPostRequest): Promise<string> {
  const body = { channel: request.channel, ...(request.threadTs ? { thread_ts: request.threadTs } : {}), ...request.message };
  const answer = await callSlackApi({ apiBaseUrl: request.apiBaseUrl, botToken: request.botToken, method: 'chat.postMessage', body, timeoutMs: request.timeoutMs });
  if (typeof answer.ts !== 'string' || answer.ts === '') {
    throw new ChannelError('SLACK_ERR_NO_MESSAGE_ID', 'Slack answered chat.postMessage with ok but without the ts of the message');
  }
  return answer.ts;
}
