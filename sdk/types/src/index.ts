/**
 * @bot-ai/types: the message, envelope, capability and subscriber types shared by the bot host
 * and its channel plugins, each with the zod schema that validates it.
 */
export * from './capabilities.ts';
export * from './messages.ts';
export * from './subscriber.ts';
