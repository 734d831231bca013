import { constantTimeEqual, type WebhookResponse } from '@bot-ai/api';

/**
 * Answers Meta's GET verification request
 * (`?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`, sent when the callback URL is saved
 * in the App Dashboard): 200 with the challenge as plain text when the mode is `subscribe` and
 * the token equals the configured one (constant time), else 403. An empty configured token
 * never matches.
 * @example answerWhatsAppHandshake(req.query, settings.verify_token, res);
 */
export function answerWhatsAppHandshake(query: Record<string, string | undefined>, verifyToken: string, res: WebhookResponse): void {
  const subscribing = query['hub.mode'] === 'subscribe';
  if (!subscribing || !constantTimeEqual(query['hub.verify_token'], verifyToken)) {
    res.status(403).send('Forbidden');
    return;
  }
  res.status(200).set('content-type', 'text/plain; charset=utf-8').send(query['hub.challenge'] ?? '');
}
