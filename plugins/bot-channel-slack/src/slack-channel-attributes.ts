/**
 * The channel attributes of a Slack event: the workspace (`team_id`), the conversation a reply
 * goes to (`channel_id`: a DM `D…`, a channel `C…`, or the user's own id, which Slack turns into
 * the app's DM with them), the app the event was addressed to, and the thread the message was
 * written in (replies then stay in that thread). Empty strings where Slack left a value out.
 * @example const { channel_id, thread_ts } = event.getChannelData<SlackChannelAttributes>();
 */
export type SlackChannelAttributes = {
  team_id: string;
  channel_id: string;
  api_app_id: string;
  thread_ts?: string;
};

declare module '@bot-ai/types' {
  interface SubscriberChannelDict {
    slack: SlackChannelAttributes;
  }
}
