/**
 * `@bot-ai/api/check`: the channel author kit. Runs a channel through the host's contract with
 * the recorded deliveries of its `fixtures/` folder, against a fake platform on 127.0.0.1.
 * Not for plugin code: it starts servers and reads files.
 */
export * from './check-manifest.schema.ts';
export { inProcessChannel, type ChannelUnderTest, type WebhookOutcome } from './channel-under-test.ts';
export { CANONICAL_ENVELOPES } from './canonical-envelopes.ts';
export { checkPackageInProcess } from './check-package-in-process.ts';
export { FakePlatform, type RecordedRequest } from './fake-platform.ts';
export { formatCheckReport } from './format-report.ts';
export { loadChannelFixtures, type ChannelFixtures } from './load-fixtures.ts';
export { checkSource, runChannelCheck, type CheckContext, type CheckReport, type CheckResult } from './run-channel-check.ts';
export { fixtureToRequest, forgeries, signRequest, type Forgery } from './sign-delivery.ts';
