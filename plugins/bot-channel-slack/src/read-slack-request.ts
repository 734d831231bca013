import { PayloadRejectedError, type WebhookRequest } from '@bot-ai/api';

/**
 * What Slack posted, by the form of the body:
 * - `events-api`: a JSON body (Events API: `url_verification`, `event_callback`, …);
 * - `interaction`: a form whose `payload` field holds the interactivity JSON (a button click);
 * - `slash-command`: a form with a `command` field;
 * - `ssl-check`: the form Slack posts to check a slash command's certificate.
 */
export type SlackRequestBody =
  | { kind: 'events-api'; body: unknown }
  | { kind: 'interaction'; payload: unknown }
  | { kind: 'slash-command' }
  | { kind: 'ssl-check' };

const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\b/i;

/**
 * Reads the body of a Slack request. Forms are parsed from `rawBody` (the bytes Slack signed),
 * never from `req.body`: the host may or may not have turned a form into an object. Throws
 * `PayloadRejectedError` (HTTP 400) for a body that is neither JSON nor one of Slack's forms.
 * @example const read = readSlackRequest(req); if (read.kind === 'interaction') …
 */
export function readSlackRequest(req: WebhookRequest): SlackRequestBody {
  if (FORM_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) return readForm(req.rawBody);
  if (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
    throw new PayloadRejectedError('The body is neither a JSON object nor a form Slack sends');
  }
  return { kind: 'events-api', body: req.body };
}

function readForm(rawBody: Uint8Array | undefined): SlackRequestBody {
  const fields = new URLSearchParams(rawBody ? Buffer.from(rawBody).toString('utf8') : '');
  const payload = fields.get('payload');
  if (payload !== null) return { kind: 'interaction', payload: parseJson(payload) };
  if (fields.has('command')) return { kind: 'slash-command' };
  if (fields.has('ssl_check')) return { kind: 'ssl-check' };
  throw new PayloadRejectedError('The form has none of the fields Slack sends (payload, command, ssl_check)');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PayloadRejectedError('The payload field of the form is not JSON', { cause: error });
  }
}
