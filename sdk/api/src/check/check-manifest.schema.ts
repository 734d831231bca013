import { z } from 'zod';

/** A header, query or setting map as written in a fixture. */
const stringMap = z.record(z.string(), z.string());

/**
 * One HTTP request to the channel's webhook, as recorded: the JSON `body`, or `rawBody` for a
 * body that is not JSON (a form), sent byte for byte.
 */
export const fixtureRequestSchema = z.object({
  method: z.enum(['GET', 'POST']).default('POST'),
  headers: stringMap.default({}),
  query: stringMap.default({}),
  body: z.unknown().optional(),
  rawBody: z.string().optional(),
});
export type FixtureRequest = z.output<typeof fixtureRequestSchema>;

/** Fields of one decoded event the check compares; only those written are compared. */
export const expectedEventSchema = z.looseObject({
  eventId: z.string().min(1),
  kind: z.enum(['channel', 'message', 'synthetic']).optional(),
  senderForeignId: z.string().optional(),
  recipientForeignId: z.string().optional(),
  message: z.unknown().optional(),
  channelAttributes: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A recorded delivery, one file in `fixtures/deliveries/`: the request the platform sends and
 * what the channel must make of it. `events: []` marks noise (a status, an echo, a bot's own
 * message): the channel must accept it and produce nothing.
 * @example { "description": "A text message", "request": { "body": { … } }, "expect": { "events": [{ "eventId": "1", "message": { "type": "text", "data": { "text": "hi" } } }] } }
 */
export const deliveryFixtureSchema = z.object({
  description: z.string().min(1),
  request: fixtureRequestSchema,
  /** False: sent as recorded, with no signature added (a published example that carries its own). */
  signed: z.boolean().default(true),
  /** A platform retry of another delivery (its file name): it must decode to the same event ids. */
  sameEventsAs: z.string().optional(),
  expect: z.object({
    status: z.number().int().default(200),
    events: z.array(expectedEventSchema).optional(),
    /** Text the response body must contain (a handshake's challenge). */
    responseBodyIncludes: z.string().optional(),
  }),
});
export type DeliveryFixture = z.output<typeof deliveryFixtureSchema>;

/**
 * How the platform signs a webhook, so the check can sign deliveries and forge bad ones:
 * - `token`: a constant secret in a header (Telegram's `X-Telegram-Bot-Api-Secret-Token`);
 * - `hmac-sha256`: the hex HMAC of `signedContent` (default `{body}`; Slack's is
 *   `v0:{timestamp}:{body}`) keyed by a setting, after `prefix`, in `header`. With a
 *   `timestampHeader`, a timestamp older than `maxAgeSeconds` must be refused.
 */
export const signatureSchemeSchema = z.discriminatedUnion('scheme', [
  z.object({ scheme: z.literal('token'), header: z.string().min(1), setting: z.string().min(1) }),
  z.object({
    scheme: z.literal('hmac-sha256'),
    header: z.string().min(1),
    setting: z.string().min(1),
    prefix: z.string().default(''),
    signedContent: z.string().default('{body}'),
    timestampHeader: z.string().optional(),
    maxAgeSeconds: z.number().int().positive().optional(),
  }),
]);
export type SignatureScheme = z.output<typeof signatureSchemeSchema>;

/** One answer of the fake platform. */
export const platformAnswerSchema = z.object({
  status: z.number().int().min(100).max(599).default(200),
  headers: stringMap.default({}),
  body: z.unknown().optional(),
});
export type PlatformAnswer = z.output<typeof platformAnswerSchema>;

/** An answer for the requests whose method and path (a regular expression) match. */
export const platformRouteSchema = platformAnswerSchema.extend({
  method: z.string().default('POST'),
  path: z.string().min(1),
});
export type PlatformRoute = z.output<typeof platformRouteSchema>;

/**
 * `fixtures/channel-check.json`: what the author kit needs besides the deliveries. In
 * `settings`, `{{platform}}` stands for the fake platform's base URL (`http://127.0.0.1:<port>`).
 */
export const checkManifestSchema = z.object({
  settings: z.record(z.string(), z.unknown()),
  signature: signatureSchemeSchema,
  /** The platform's GET handshake, if it has one: a request accepted and one refused. */
  handshake: z
    .object({
      accept: z.object({ query: stringMap, expect: z.object({ status: z.number().int().default(200), bodyIncludes: z.string().optional() }) }),
      refuse: z.object({ query: stringMap, expect: z.object({ status: z.number().int() }) }),
    })
    .optional(),
  platform: z.object({
    /** How the fake platform answers; first match wins, anything else gets 404. */
    routes: z.array(platformRouteSchema).min(1),
    /** The platform's rate-limit answer, and the wait in ms the channel must read from it. */
    rateLimited: platformAnswerSchema.extend({ retryAfterMs: z.number().int().positive() }),
  }),
  /** The delivery (file name) whose first event the check answers, and profiles. */
  replyTo: z.string().min(1),
  /** Fields the new subscriber of `replyTo` must have when the profile API answers (`routes`). */
  subscriber: z.record(z.string(), z.unknown()).default({}),
});
export type CheckManifest = z.output<typeof checkManifestSchema>;
