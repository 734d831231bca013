/**
 * How deeply a webhook body's arrays and objects may nest before it counts as not JSON. Platform
 * payloads nest a handful of levels; a body a thousand levels deep is an attack, and its events
 * would come back from the worker too deep to clone (the task then hangs until its timeout).
 */
export const MAX_WEBHOOK_BODY_DEPTH = 64;

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACKET = 0x5d; // ]
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

const FORM_CONTENT_TYPE = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * The body a channel sees as `req.body`: for a form (`application/x-www-form-urlencoded`, as
 * Slack's interactive payloads and slash commands are posted) an object of its fields, the
 * last value of a repeated name winning; otherwise the bytes parsed as JSON, or undefined when
 * they are empty, not JSON, or nested deeper than MAX_WEBHOOK_BODY_DEPTH (the channel decides
 * what such a body means). The worker parses it, not the host: the host's main thread then sends
 * only the raw bytes, which it transfers rather than clones, and spends nothing on a parse the
 * plugin may not need.
 * @example parseWebhookBody(Buffer.from('{"a":1}')) // { a: 1 }
 * @example parseWebhookBody(Buffer.from('payload=%7B%7D'), 'application/x-www-form-urlencoded') // { payload: '{}' }
 */
export function parseWebhookBody(raw: Uint8Array, contentType?: string): unknown {
  if (raw.byteLength === 0) return undefined;
  if (contentType !== undefined && FORM_CONTENT_TYPE.test(contentType)) {
    return Object.fromEntries(new URLSearchParams(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')));
  }
  if (nestsTooDeeply(raw)) return undefined;
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** True when brackets outside strings open more than MAX_WEBHOOK_BODY_DEPTH deep; one pass, no parse. */
function nestsTooDeeply(raw: Uint8Array): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index += 1) {
    const byte = raw[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > MAX_WEBHOOK_BODY_DEPTH) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return false;
}
