/**
 * Every error the host raises, declared once: its stable code, the HTTP status it maps to, and
 * whether its message may be shown to a client. Codes are never reused or renamed; the README's
 * error table is checked against this one by a test.
 */
export const ERROR_CODES = {
  BOT_ERR_CONFIG_INVALID: { status: 500, expose: false, description: 'Start-up refused: an environment variable is invalid (never sent over HTTP).' },
  BOT_ERR_INTERNAL: { status: 500, expose: false, description: 'Unexpected failure; details are only in the logs.' },
  BOT_ERR_DB_UNAVAILABLE: { status: 503, expose: true, description: 'The database cannot be reached; retry later.' },
  BOT_ERR_HEALTH_NOT_READY: { status: 503, expose: true, description: 'The database is unreachable or migrations are pending.' },
  BOT_ERR_HTTP_NOT_FOUND: { status: 404, expose: true, description: 'No route matches the method and path.' },
  BOT_ERR_HTTP_METHOD_NOT_ALLOWED: { status: 405, expose: true, description: 'The path exists but not with this method.' },
  BOT_ERR_HTTP_METHOD_NOT_IMPLEMENTED: { status: 501, expose: true, description: 'The HTTP method is not one the host serves.' },
  BOT_ERR_HTTP_BODY_TOO_LARGE: { status: 413, expose: true, description: 'The request body exceeds the configured limit.' },
  BOT_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: { status: 415, expose: true, description: 'The request body is not JSON.' },
  BOT_ERR_HTTP_MALFORMED_JSON: { status: 400, expose: true, description: 'The request body is not valid JSON.' },
  BOT_ERR_HTTP_VALIDATION: { status: 422, expose: true, description: 'The body, path or query does not match the route schema.' },
  BOT_ERR_AUTH_TOKEN_MISSING: { status: 401, expose: true, description: 'No `Authorization: Bearer` token was sent.' },
  BOT_ERR_AUTH_TOKEN_INVALID: { status: 401, expose: true, description: 'The token is malformed, expired or wrongly signed.' },
  BOT_ERR_AUTH_FORBIDDEN: { status: 403, expose: true, description: "The token's role lacks the route's permission." },
  BOT_ERR_AUTH_LOGIN_LINK_INVALID: { status: 401, expose: true, description: 'The login code is unknown, used or expired.' },
  BOT_ERR_MEMORY_DEFINITION_NOT_FOUND: { status: 404, expose: true, description: 'No memory definition has this id.' },
  BOT_ERR_MEMORY_DEFINITION_NAME_TAKEN: { status: 409, expose: true, description: 'Another memory definition has this name.' },
  BOT_ERR_MEMORY_DEFINITION_SLUG_TAKEN: { status: 409, expose: true, description: 'Another memory definition has this slug.' },
  BOT_ERR_MEMORY_DEFINITION_SLUG_LOCKED: { status: 409, expose: true, description: 'The slug cannot change: records exist or a workflow uses it.' },
  BOT_ERR_MEMORY_SLUG_INVALID: { status: 422, expose: true, description: 'A slug holds characters other than a-z, 0-9 and _.' },
  BOT_ERR_MEMORY_SCHEMA_INVALID: { status: 422, expose: true, description: 'A memory schema breaks the object-schema rules.' },
  BOT_ERR_MEMORY_TTL_INVALID: { status: 422, expose: true, description: 'TTL must be empty or a positive whole number of seconds.' },
  BOT_ERR_MEMORY_SLUG_UNKNOWN: { status: 422, expose: true, description: 'No memory definition has this slug.' },
  BOT_ERR_MEMORY_VALUE_INVALID: { status: 422, expose: true, description: "A memory value does not match its definition's schema." },
  BOT_ERR_MEMORY_SCOPE_MISSING: { status: 422, expose: true, description: "The write lacks the workflow, thread or run its scope needs." },
  BOT_ERR_MEMORY_RECORD_NOT_FOUND: { status: 404, expose: true, description: 'No live memory record has this id.' },
  BOT_ERR_MEMORY_DEFINITION_SCOPE_LOCKED: { status: 409, expose: true, description: 'The scope cannot change while records exist: their identities depend on it.' },
  BOT_ERR_MEMORY_NAME_INVALID: { status: 422, expose: true, description: 'A memory definition name is empty or too long.' },
  BOT_ERR_SOURCE_NOT_FOUND: { status: 404, expose: true, description: 'No source has this id.' },
  BOT_ERR_SOURCE_NAME_TAKEN: { status: 409, expose: true, description: 'Another source has this name.' },
  BOT_ERR_SOURCE_CHANNEL_UNKNOWN: { status: 422, expose: true, description: 'No registered channel has this name.' },
  BOT_ERR_SOURCE_SETTINGS_INVALID: { status: 422, expose: true, description: "The settings do not match the channel's settings schema." },
  BOT_ERR_WEBHOOK_SOURCE_UNKNOWN: { status: 404, expose: true, description: 'No source has this webhook reference.' },
  BOT_ERR_WEBHOOK_WORKFLOW_UNKNOWN: { status: 404, expose: true, description: 'No workflow has the id given in the webhook URL.' },
  BOT_ERR_WEBHOOK_CHANNEL_UNAVAILABLE: { status: 503, expose: true, description: "The source's channel is disabled, failed or busy; the platform should retry." },
  BOT_ERR_WEBHOOK_SIGNATURE_REJECTED: { status: 401, expose: true, description: 'The channel rejected the request signature.' },
  BOT_ERR_WEBHOOK_PAYLOAD_REJECTED: { status: 400, expose: true, description: "The body is not in the channel's platform format." },
} as const satisfies Record<string, { status: number; expose: boolean; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
