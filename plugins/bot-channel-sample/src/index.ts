/**
 * bot-channel-sample: the reference channel of the bot host. The host discovers
 * `dist/index.channel.js`; this entry is for code that wants the class or its schemas.
 */
export { default, default as SampleChannel } from './index.channel.ts';
export { sampleSettingsSchema, DEFAULT_SAMPLE_API_URL, type SampleSettings } from './sample-settings.schema.ts';
export { samplePayloadSchema, sampleEventSchema, type SamplePayload, type SampleEvent } from './sample-payload.schema.ts';
export { SampleEncoder, type SampleOutgoingMessage } from './sample-encoder.ts';
export { signSampleBody, SAMPLE_SIGNATURE_HEADER } from './check-sample-signature.ts';
export type { SampleChannelAttributes } from './sample-channel-attributes.ts';
