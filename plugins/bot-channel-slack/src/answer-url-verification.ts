import type { WebhookRequest, WebhookResponse } from '@bot-ai/api';
import { slackUrlVerificationSchema } from './slack-payload.schema.ts';

/**
 * Answers Slack's Request URL handshake (`{ type: 'url_verification', challenge }`) with
 * `200 {"challenge": …}`, which proves to Slack that this URL is the app's. Call it only once
 * the request's signature holds: an unsigned handshake gets nothing. Any other body: no answer
 * is written (the host's default 200 follows).
 * @example checkSlackSignature(…); answerUrlVerification(req, res);
 */
export function answerUrlVerification(req: WebhookRequest, res: WebhookResponse): void {
  const handshake = slackUrlVerificationSchema.safeParse(req.body);
  if (handshake.success && !/form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
    res.status(200).json({ challenge: handshake.data.challenge });
  }
}
