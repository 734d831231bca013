/**
 * The codes the channel sandbox raises, declared here because the runner bundle needs them and
 * may import plugin-side code only. The host's error table (host/errors/plugin-error-codes.ts)
 * spreads these rows in and adds the classes it reads; the runner never needs those. Plugin
 * messages can hold anything (paths, payloads), so none is exposed. Codes are never reused.
 */
export const SANDBOX_ERROR_CODES = {
  // Checks run in a worker before a channel is registered.
  BOT_ERR_PLUGIN_IMPORT_FAILED: { status: 500, expose: false, description: 'Importing the channel file threw.' },
  BOT_ERR_PLUGIN_NO_DEFAULT_EXPORT: { status: 500, expose: false, description: 'The channel file has no default export.' },
  BOT_ERR_PLUGIN_NOT_A_CLASS: { status: 500, expose: false, description: 'The default export is not a class.' },
  BOT_ERR_PLUGIN_NOT_INJECTABLE: { status: 500, expose: false, description: 'The default export is not marked with `Injectable()`.' },
  BOT_ERR_PLUGIN_WRONG_BASE_CLASS: {
    status: 500,
    expose: false,
    description: 'The default export extends neither `HttpChannelHandler` nor `WebSocketChannelHandler`.',
  },
  BOT_ERR_PLUGIN_CONSTRUCT_FAILED: { status: 500, expose: false, description: 'Constructing the handler (or its injected helpers) threw.' },
  BOT_ERR_PLUGIN_NO_SETTINGS_SCHEMA: { status: 500, expose: false, description: 'The handler has no settings schema.' },
  BOT_ERR_PLUGIN_SETTINGS_SCHEMA_INVALID: {
    status: 500,
    expose: false,
    description: 'The settings schema is not a zod object schema that converts to JSON Schema.',
  },
  BOT_ERR_PLUGIN_NO_NAME: { status: 500, expose: false, description: 'The handler has no name, or an empty one.' },
  // Calls into a loaded channel.
  BOT_ERR_PLUGIN_START_TIMEOUT: { status: 503, expose: false, description: "The channel's first worker did not load the plugin in time." },
  BOT_ERR_PLUGIN_CALL_TIMEOUT: { status: 503, expose: false, description: 'A call into the channel did not finish in time; its worker was stopped.' },
  BOT_ERR_PLUGIN_WORKER_CRASHED: {
    status: 503,
    expose: false,
    description: 'The worker died during the call (out of memory, `process.exit`, uncaught error).',
  },
  BOT_ERR_PLUGIN_QUEUE_FULL: { status: 503, expose: false, description: "The channel's task queue is full." },
  BOT_ERR_PLUGIN_SEND_NOT_STARTED: {
    status: 503,
    expose: false,
    description: 'A send timed out or its worker died before the plugin was called: the platform surely did not get it.',
  },
  BOT_ERR_PLUGIN_SANDBOX_CLOSED: { status: 503, expose: false, description: 'The channel sandbox is closing or closed.' },
  BOT_ERR_PLUGIN_RUNNER_DOWN: {
    status: 503,
    expose: false,
    description: "The channel's runner process is not running (it died or was killed, and is being restarted with backoff).",
  },
  BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE: {
    status: 503,
    expose: false,
    description: 'BOT_ISOLATION=strict and bubblewrap cannot run here, so the channel does not start.',
  },
  BOT_ERR_PLUGIN_THREW: { status: 500, expose: false, description: 'Plugin code threw; the cause keeps its name, message and code.' },
  BOT_ERR_PLUGIN_INVALID_RESULT: { status: 500, expose: false, description: 'A handler method returned something the contract does not allow.' },
  BOT_ERR_PLUGIN_CALL_UNSUPPORTED: { status: 500, expose: false, description: 'The channel kind has no such method (e.g. a webhook call on a WebSocket channel).' },
  BOT_ERR_PLUGIN_HOST_SERVICE_TIMEOUT: { status: 500, expose: false, description: 'A host service called from the worker did not answer in time.' },
  BOT_ERR_PLUGIN_HOST_SERVICE_FAILED: { status: 500, expose: false, description: 'A host service called from the worker failed.' },
} as const satisfies Record<string, { status: number; expose: boolean; description: string }>;

export type SandboxErrorCode = keyof typeof SANDBOX_ERROR_CODES;
