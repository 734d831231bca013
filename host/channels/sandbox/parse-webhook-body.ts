/**
 * The JSON body a channel sees as `req.body`: the bytes parsed as JSON, or undefined when they
 * are empty or not JSON (the channel decides what such a body means). The worker parses it, not
 * the host: the host's main thread then sends only the raw bytes, which it transfers rather than
 * clones, and spends nothing on a parse the plugin may not need.
 * @example parseWebhookBody(Buffer.from('{"a":1}')) // { a: 1 }
 */
export function parseWebhookBody(raw: Uint8Array): unknown {
  if (raw.byteLength === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
