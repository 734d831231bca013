/**
 * bot-channel-__name__: the host discovers `dist/index.channel.js`; this entry is for code that
 * wants the class or its schemas (tests, other packages).
 */
export { default, default as __Name__Channel } from './index.channel.ts';
export { settingsSchema, type Settings } from './settings.schema.ts';
export { eventSchema, payloadSchema, type PlatformEvent } from './decode-events.ts';
export { signBody, SIGNATURE_HEADER } from './check-signature.ts';
