/**
 * Fields of a Slack body that give their holder a power and must not be stored with the event:
 * the legacy verification `token`, and the `response_url`s of an interaction (for 30 minutes,
 * anyone with one may post to the conversation).
 */
const CREDENTIAL_FIELDS: ReadonlySet<string> = new Set(['token', 'response_url', 'response_urls']);

/**
 * A copy of a Slack body (an Events API delivery or an interaction payload) without its
 * credentials, to keep as the event's raw data.
 * @example stripSlackCredentials({ token: 'xyz', type: 'event_callback', event }) // { type: 'event_callback', event }
 */
export function stripSlackCredentials(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !CREDENTIAL_FIELDS.has(key)));
}
