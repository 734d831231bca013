/** What failed, in plain words, and what the operator can do about it. */
export interface PlainErrorEntry {
  what: string;
  todo: string;
}

/** The advice to try again, said for a live run; a test run's sentence says "run the test again" instead. */
export const RETRY = 'retry the event from Dead letters';

/**
 * Run and step error codes as an operator reads them. Channel codes are the channel's own
 * (`TELEGRAM_ERR_UNREACHABLE`), so they are matched by what they end with (see
 * {@link CHANNEL_CODE_SUFFIXES}); a code in neither table gets a generic sentence.
 */
export const PLAIN_ERRORS: Readonly<Record<string, PlainErrorEntry>> = {
  BOT_ERR_WORKFLOW_EXPRESSION_FAILED: { what: 'an expression could not be evaluated', todo: 'fix the expression named below in the workflow and save' },
  BOT_ERR_WORKFLOW_EXPRESSION_TIMEOUT: { what: 'an expression took too long to evaluate', todo: 'simplify the expression named below' },
  BOT_ERR_WORKFLOW_EXPRESSION_RESULT_TOO_LARGE: { what: "the step's inputs evaluated to more than 1 MiB", todo: 'pass less data to the step' },
  BOT_ERR_WORKFLOW_INPUT_INVALID: { what: "the step's inputs do not fit its action", todo: "check the inputs' types against the action's documentation" },
  BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND: { what: 'the step wrote a memory the workflow does not declare', todo: 'add a `kind: memory` def for it to the workflow' },
  BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN: { what: "a memory def names a memory definition that no longer exists", todo: 'point the def at an existing definition on the Memory page' },
  BOT_ERR_WORKFLOW_TOOL_DEPTH_EXCEEDED: { what: 'agents called each other too deeply', todo: 'make fewer agents offer each other as tools' },
  BOT_ERR_WORKFLOW_RUN_ABANDONED: { what: 'the host stopped before the run ended', todo: 'nothing to do: a later attempt of the same event takes over' },
  BOT_ERR_WORKFLOW_STEP_FAILED: { what: 'the step failed with an unexpected error', todo: "read the details below and the host's log" },
  BOT_ERR_MEMORY_VALUE_INVALID: { what: "the value to remember does not match its memory definition's schema", todo: "change the value in the workflow, or the definition's schema" },
  BOT_ERR_MEMORY_SLUG_UNKNOWN: { what: 'the step wrote a memory slug that no definition has', todo: 'create the memory definition or fix the slug' },
  BOT_ERR_MEMORY_SCOPE_MISSING: { what: 'the memory write lacks the workflow, thread or run its scope needs', todo: "check the definition's scope" },
  BOT_ERR_AI_MODEL_UNBOUND: { what: 'the AI step has no model', todo: 'bind a `kind: model` def to the task or the workflow' },
  BOT_ERR_AI_MODEL_SETTINGS_INVALID: { what: "the model def's settings are invalid", todo: 'fix the model def in the workflow' },
  BOT_ERR_AI_BASE_URL_MISSING: { what: 'no model provider address is configured', todo: 'set BOT_AI_BASE_URL and restart the host' },
  BOT_ERR_AI_BASE_URL_FORBIDDEN: { what: 'the model def sets its own base_url, which the host does not allow', todo: 'remove settings.base_url or allow it with BOT_AI_ALLOW_WORKFLOW_BASE_URL' },
  BOT_ERR_AI_INPUT_INVALID: { what: "the AI step's inputs are invalid", todo: "check the step's prompt, schema and tools" },
  BOT_ERR_AI_REQUEST_FAILED: { what: 'the model provider failed or could not be reached', todo: `check the provider and its address, then ${RETRY}` },
  BOT_ERR_AI_TIMEOUT: { what: 'the model took too long to answer', todo: `${RETRY}, or raise BOT_AI_REQUEST_TIMEOUT_MS` },
  BOT_ERR_AI_OUTPUT_INVALID: { what: "the model's answer was empty or did not match the requested shape", todo: 'make the prompt or the output schema clearer' },
  BOT_ERR_PLUGIN_CALL_TIMEOUT: { what: 'the channel did not answer in time', todo: `check the platform is up, then ${RETRY}` },
  BOT_ERR_PLUGIN_WORKER_CRASHED: { what: 'the channel crashed', todo: `read the host's log for the channel, then ${RETRY}` },
  BOT_ERR_PLUGIN_QUEUE_FULL: { what: 'the channel was too busy', todo: `wait a little, then ${RETRY}` },
  BOT_ERR_PLUGIN_SEND_NOT_STARTED: { what: 'the channel could not start sending the reply', todo: `wait a little, then ${RETRY}` },
  BOT_ERR_PLUGIN_SANDBOX_CLOSED: { what: 'the channel was stopping', todo: `wait until it runs again (Channels page), then ${RETRY}` },
  BOT_ERR_PLUGIN_RUNNER_DOWN: { what: "the channel's runner process was down", todo: `wait for its restart (Channels page), then ${RETRY}` },
  BOT_ERR_PLUGIN_THREW: { what: 'the channel failed', todo: `read the details below, then ${RETRY}` },
  BOT_ERR_SOURCE_CHANNEL_UNAVAILABLE: { what: "the source's channel was disabled or busy", todo: `enable it on the Channels page, then ${RETRY}` },
  BOT_ERR_EGRESS_HOST_NOT_ALLOWED: { what: 'the channel tried to reach an address it is not allowed to', todo: "check the source's endpoint settings" },
  BOT_ERR_EGRESS_FAILED: { what: 'the platform could not be reached', todo: `check the network and the source's settings, then ${RETRY}` },
  BOT_ERR_EGRESS_TIMEOUT: { what: 'the platform did not answer in time', todo: `check the platform is up, then ${RETRY}` },
};

/** Channel codes (`<CHANNEL>_ERR_<WHAT>`) by their ending. */
export const CHANNEL_CODE_SUFFIXES: readonly [string, PlainErrorEntry][] = [
  ['_UNREACHABLE', { what: 'the platform could not be reached', todo: `check the network and the source's settings (address, token), then ${RETRY}` }],
  ['_PLATFORM_STATUS', { what: 'the platform refused the request', todo: "read its answer below; often a wrong token or chat id in the source's settings" }],
  ['_UNSUPPORTED_FORMAT', { what: 'the channel cannot send this kind of message', todo: 'send a message type the channel supports' }],
  ['_BAD_ANSWER', { what: 'the platform answered something the channel did not understand', todo: `${RETRY}; report it if it persists` }],
  ['_NO_SENDER', { what: 'the event named no one to answer', todo: 'nothing to do for this event' }],
  ['_NO_RECIPIENT', { what: 'the reply had no one to go to', todo: 'nothing to do for this event' }],
  ['_TOO_LONG', { what: 'the message is longer than the platform allows', todo: 'shorten the text in the workflow' }],
];
