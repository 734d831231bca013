/**
 * An Express-style response a channel writes to in `verifyWebhook()` or `verifySignature()`;
 * the host replays it onto the real HTTP response: a 2xx, 4xx or 5xx status (anything else is
 * answered 500), the body, and of the headers only `content-type`, `allow`, `retry-after` and
 * `cache-control` (no cookies, no redirects: the answer is served on the host's own origin).
 * @example res.status(200).set('content-type', 'text/plain').send(challenge);
 */
export class WebhookResponse {
  statusCode: number | undefined;
  body: string | undefined;
  readonly headers: Record<string, string> = {};

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  send(body: string | number | boolean): this {
    this.body = String(body);
    this.headers['content-type'] ??= 'text/plain; charset=utf-8';
    return this;
  }

  json(body: unknown): this {
    this.body = JSON.stringify(body);
    this.headers['content-type'] = 'application/json; charset=utf-8';
    return this;
  }

  set(header: string, value: string): this {
    this.headers[header.toLowerCase()] = value;
    return this;
  }

  /** Plain data, to cross the worker boundary. */
  toPlain(): PlainWebhookResponse {
    return { statusCode: this.statusCode, body: this.body, headers: { ...this.headers } };
  }
}

export interface PlainWebhookResponse {
  statusCode: number | undefined;
  body: string | undefined;
  headers: Record<string, string>;
}
