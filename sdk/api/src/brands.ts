/**
 * Brands the host reads to recognise SDK objects. `Symbol.for` keys are shared by every copy of
 * this package in a process, so the checks hold even when a plugin resolves its own copy.
 */
export const CHANNEL_HANDLER_KIND: unique symbol = Symbol.for('bot-ai.channel-handler.kind') as never;
export const INJECTABLE: unique symbol = Symbol.for('bot-ai.injectable') as never;
export const EXTENSION_INJECTIONS: unique symbol = Symbol.for('bot-ai.extension-injections') as never;
export const CHANNEL_ERROR: unique symbol = Symbol.for('bot-ai.channel-error') as never;

export type ChannelHandlerKind = 'http' | 'websocket';
