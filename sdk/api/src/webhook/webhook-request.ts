/**
 * A webhook request as a channel sees it. `rawBody` holds the exact bytes received: compute
 * signatures over these, never over a re-serialised `body`.
 * @example const expected = createHmac('sha256', secret).update(req.rawBody).digest('hex');
 */
export interface WebhookRequest {
  method: 'GET' | 'POST';
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  params: Record<string, string | undefined>;
  /**
   * The body parsed: a form (`application/x-www-form-urlencoded`) as an object of its fields,
   * anything else as JSON, or undefined when it is not JSON.
   */
  body: unknown;
  rawBody: Uint8Array;
}
