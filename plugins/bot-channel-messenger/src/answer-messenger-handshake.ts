import { constantTimeEqual, type WebhookRequest, type WebhookResponse } from '@bot-ai/api';

/**
 * Answers Meta's GET check of the callback URL (`hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`):
 * 200 with the challenge as plain text when the mode is `subscribe` and the token equals the
 * source's verify token (constant time; an empty configured token never matches), else 403.
 * @example answerMessengerHandshake(req.query, res, settings.verify_token);
 */
export function answerMessengerHandshake(query: WebhookRequest['query'], res: WebhookResponse, verifyToken: string): void {
  if (query['hub.mode'] !== 'subscribe' || !constantTimeEqual(query['hub.verify_token'], verifyToken)) {
    res.status(403).send('Forbidden');
    return;
  }
  res.status(200).set('content-type', 'text/plain; charset=utf-8').send(query['hub.challenge'] ?? '');
}
