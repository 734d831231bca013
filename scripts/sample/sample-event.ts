import { createHmac, randomUUID } from 'node:crypto';

export interface SampleEventInput {
  text: string;
  from: string;
  name: string;
}

/**
 * One webhook body in the sample platform's format (plugins/bot-channel-sample/README.md) and its `X-Bot-Signature`: the
 * hex HMAC-SHA256 of exactly these bytes, keyed by the source's webhook secret.
 * @example const { body, signature } = signedSampleEvent({ text: 'hi', from: 'user-1', name: 'Ada' }, secret);
 */
export function signedSampleEvent({ text, from, name }: SampleEventInput, secret: string): { body: string; signature: string } {
  const body = JSON.stringify({
    events: [
      {
        id: `evt-${randomUUID()}`,
        timestamp: Date.now(),
        sender: { id: from, first_name: name },
        recipient: { id: 'bot-1' },
        message: { text },
      },
    ],
  });
  return { body, signature: createHmac('sha256', secret).update(body).digest('hex') };
}
