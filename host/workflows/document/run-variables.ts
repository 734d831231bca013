/**
 * The fields of `$input`, the inbound message as the dispatcher gives it to a run (see
 * `toRunInput` in host/dispatch/inbound-event-processor.ts). A field a message type lacks is
 * absent, not unknown: `$input.location` is read on any message.
 */
export const INPUT_FIELDS = ['message_type', 'text', 'payload', 'attachments', 'location', 'event_id', 'channel', 'sender_id', 'occurred_at'] as const;

/** The keys of `$context`: memory by slug always, the subscriber and the source in live runs. */
export const CONTEXT_KEYS = ['memory', 'subscriber', 'source'] as const;

/** The variables the runner binds for every expression (see host/workflows/expressions/expression-bindings.ts). */
export const SCOPE_VARIABLES = ['context', 'input', 'outputs'] as const;
