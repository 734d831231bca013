import type { ChannelSource } from '../source.ts';
import type { CheckManifest } from './check-manifest.schema.ts';
import { checkDeliveries } from './check-deliveries.ts';
import { checkHandshake, describeChecks } from './check-description.ts';
import { CheckFailure, describeError } from './check-failure.ts';
import { checkSends } from './check-sends.ts';
import { checkSubscriber } from './check-subscriber.ts';
import type { CheckContext, CheckReport, CheckResult } from './check-types.ts';

export type { CheckContext, CheckReport, CheckResult } from './check-types.ts';

/**
 * The source the checks run on: the manifest's settings, `{{platform}}` replaced by the fake
 * platform's URL.
 * @example const source = checkSource(fixtures.manifest, platform.url);
 */
export function checkSource(manifest: CheckManifest, platformUrl: string): ChannelSource {
  const settings = JSON.parse(JSON.stringify(manifest.settings).replaceAll('{{platform}}', platformUrl)) as Record<string, unknown>;
  return { id: 'channel-check-source', ref: 'channel-check', settings, active: true };
}

/**
 * Runs a channel through the contract with its recorded deliveries: its description and
 * settings, the handshake, every delivery decoded as expected, signatures refused when forged,
 * retries decoding to the same ids, a send of each declared type (and a refusal of the others),
 * the platform's rate limit and an outage on send, and the subscriber's data with and without
 * the profile API. Never throws for a failing channel: each check is a line of the report.
 * @example const report = await runChannelCheck({ channel, fixtures, platform, source });
 */
export async function runChannelCheck(context: CheckContext): Promise<CheckReport> {
  const results: CheckResult[] = [];
  const check = async (name: string, run: () => Promise<string | void>): Promise<boolean> => {
    try {
      const detail = await run();
      results.push({ name, ok: true, ...(detail ? { detail } : {}) });
      return true;
    } catch (error) {
      results.push({ name, ok: false, detail: error instanceof CheckFailure ? error.message : describeError(error) });
      return false;
    }
  };
  const described = await context.channel.describe().catch((error: unknown) => {
    results.push({ name: 'the channel describes itself', ok: false, detail: describeError(error) });
    return undefined;
  });
  if (!described) return report('(unknown)', results);
  await check('the channel describes itself', async () => describeChecks(described, context.fixtures.manifest));
  await checkHandshake(context, check);
  const replyTo = await checkDeliveries(context, check);
  if (replyTo) {
    await checkSends(context, described.capabilities, replyTo, check);
    await checkSubscriber(context, replyTo, check);
  } else {
    results.push({ name: 'sends and subscriber data', ok: false, detail: `the replyTo delivery "${context.fixtures.manifest.replyTo}" produced no event to answer` });
  }
  return report(described.name, results);
}

function report(channel: string, results: CheckResult[]): CheckReport {
  return { channel, results, ok: results.every((result) => result.ok) };
}
