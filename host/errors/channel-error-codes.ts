import type { ErrorCodeEntry } from './error-code-entry.ts';

/**
 * The codes of the SDK's channel errors (sdk/api/src/errors.ts), which plugins throw on purpose
 * and the host relays or acts on, plus the host's own "this channel is not running". A plugin's
 * words can hold anything, so none is exposed as such.
 */
export const CHANNEL_ERROR_CODES = {
  BOT_ERR_CHANNEL_SIGNATURE_REJECTED: { status: 401, expose: false, description: 'A channel rejected a webhook\'s signature (`SignatureRejectedError`); the host answers `BOT_ERR_WEBHOOK_SIGNATURE_REJECTED`.' },
  BOT_ERR_CHANNEL_PAYLOAD_REJECTED: { status: 400, expose: false, description: "A channel found a webhook body or a frame not in its platform's format (`PayloadRejectedError`)." },
  BOT_ERR_CHANNEL_SETTINGS_INVALID: { status: 422, expose: false, description: "A source's settings do not match its channel's settings schema, as the channel checked them." },
  BOT_ERR_CHANNEL_CONNECT_UNSUPPORTED: { status: 409, expose: false, description: 'The channel has no connect step; the host answers `BOT_ERR_SOURCE_CONNECT_UNSUPPORTED`.' },
  BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT: { status: 422, expose: false, description: 'A channel cannot send this message type (`UnsupportedOutgoingFormatError`); the reply was not sent.', notDelivered: true },
  BOT_ERR_CHANNEL_PLATFORM_STATUS: { status: 502, expose: false, description: 'The platform answered a send with a non-success status (`PlatformResponseError`); the reply was not delivered.', notDelivered: true },
  BOT_ERR_CHANNEL_UNAVAILABLE: { status: 503, expose: false, description: 'The channel is disabled, failed to start or is not registered (or a web chat reply could not be stored); nothing was sent.', notDelivered: true },
} as const satisfies Record<string, ErrorCodeEntry>;
