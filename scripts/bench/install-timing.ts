/**
 * How long a package change takes to serve: from the admin request until the version it names
 * answers a webhook. A probe asks the host's diagnostics which version serves the channel and,
 * once it is the new one, posts a signed webhook; its 200 is the moment counted. The admin
 * request's answer, which the host sends once the replaced runner has drained, is timed too. The
 * probe's poll and round trips make "serving" read a few tens of ms late, so it can follow the answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sharedNow } from './e2e-plan.ts';
import type { InstallAdmin } from './install-admin.ts';
import { SIGNATURE_HEADER, signedWebhook } from './ingest-payload.ts';

const POLL_MS = 25;
const SERVING_TIMEOUT_MS = 60_000;

/** A channel's source, for the probe's webhooks. */
export interface ProbeTarget {
  admin: InstallAdmin;
  channel: string;
  webhookUrl: string;
  secret: string;
}

export interface ChangeTiming {
  /** Request → the new version answered a webhook 200, in ms. */
  servingMs: number;
  /** Request → the admin API's answer, in ms. */
  answeredMs: number;
}

let probes = 0;

/** Makes `change` (an admin request) and times it until `version` serves `target`'s webhooks. */
export async function timeChange(target: ProbeTarget, version: string, change: () => Promise<unknown>): Promise<ChangeTiming> {
  const started = sharedNow();
  let failure: { error: unknown } | undefined;
  const answered = change().then(
    () => sharedNow(),
    (error: unknown) => {
      failure = { error };
      return Number.NaN;
    },
  );
  while (!(await serves(target, version))) {
    if (failure) throw failure.error;
    if (sharedNow() - started > SERVING_TIMEOUT_MS) throw new Error(`${target.channel}@${version} did not serve within ${SERVING_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
  const servingAt = sharedNow();
  const answeredAt = await answered;
  if (failure) throw failure.error;
  return { servingMs: servingAt - started, answeredMs: answeredAt - started };
}

/** Whether `version` serves the channel and its source's webhook is answered 200 now. */
async function serves(target: ProbeTarget, version: string): Promise<boolean> {
  if ((await target.admin.servingVersion(target.channel)) !== version) return false;
  const webhook = signedWebhook(target.secret, 'probe', (probes += 1));
  const response = await fetch(target.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: webhook.signature }, body: webhook.body });
  await response.arrayBuffer();
  return response.status === 200;
}
