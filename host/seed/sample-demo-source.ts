/**
 * The sample source seeded on the embedded default, and what `npm run sample:send` and
 * `npm run sample:platform` assume of it. Its ref is fixed (not random) so that the README's
 * commands work as written, with no token and no look-up.
 *
 * The key and secret are known, weak values ON PURPOSE: they exist only on the embedded dev
 * set-up (a throwaway database on 127.0.0.1, talking to a local fake platform). A host on
 * DATABASE_URL is never seeded, so these never reach a real deployment.
 */
export const SAMPLE_DEMO_SOURCE = {
  ref: 'sample-demo',
  name: 'Sample platform (demo)',
  channel: 'sample',
  apiKey: 'sample-dev-api-key',
  webhookSecret: 'sample-dev-webhook-secret',
} as const;

/** Where `npm run sample:platform` listens unless told otherwise (BOT_SAMPLE_PLATFORM_URL's default). */
export const SAMPLE_PLATFORM_DEFAULT_URL = 'http://127.0.0.1:4100';
