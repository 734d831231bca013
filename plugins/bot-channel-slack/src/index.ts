/**
 * bot-channel-slack: the Slack channel of the bot host. The host discovers
 * `dist/index.channel.js`; this entry is for code that wants the class, its schemas or helpers
 * (signing a request as Slack does, in a test or a replay tool).
 */
export { default, default as SlackChannel, SLACK_CHANNEL_SEND_INTERVAL_MS, SLACK_MAX_TEXT_LENGTH } from './index.channel.ts';
export { slackSettingsSchema, DEFAULT_SLACK_API_BASE_URL, type SlackSettings } from './slack-settings.schema.ts';
export {
  signSlackRequest,
  checkSlackSignature,
  SLACK_SIGNATURE_HEADER,
  SLACK_TIMESTAMP_HEADER,
  SLACK_MAX_SIGNATURE_AGE_SECONDS,
  type SlackSignatureInput,
} from './check-slack-signature.ts';
export { decodeSlackRequest } from './decode-slack-request.ts';
export type { SlackDecodeResult } from './slack-decode-result.ts';
export { SLACK_NOISE_RULES, slackNoiseRuleFor, type SlackDropRule, type SlackNoiseRule, type SlackNoiseRuleName } from './slack-noise-rules.ts';
export {
  slackEventCallbackSchema,
  slackMessageEventSchema,
  slackBlockActionsSchema,
  slackFileSchema,
  type SlackEventCallback,
  type SlackMessageEvent,
  type SlackBlockActions,
  type SlackFile,
} from './slack-payload.schema.ts';
export { SlackEncoder, type SlackOutgoingMessage } from './slack-encoder.ts';
export type { SlackBlock } from './slack-blocks.ts';
export { SlackApiError, callSlackApi, SLACK_CALL_TIMEOUT_MS, SLACK_RATELIMITED_DEFAULT_WAIT_MS } from './call-slack-api.ts';
export { buildSlackAppManifest, SLACK_BOT_SCOPES, SLACK_BOT_EVENTS } from './slack-app-manifest.ts';
export { escapeSlackText, unescapeSlackText } from './slack-text.ts';
export type { SlackChannelAttributes } from './slack-channel-attributes.ts';
