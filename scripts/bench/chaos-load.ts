/**
 * The chaos benchmark's load generator, its own process: it posts signed greeting webhooks to
 * several instances in turn and behaves like a platform, sending a message that was not answered
 * 200 (a 503, a refused connection, a reset) again to the next instance after a pause, until it
 * is acknowledged or given up. It takes one ChaosLoadPlan over IPC and sends back a
 * ChaosLoadResult. Plain, erasable TypeScript, started without a loader.
 */
import http from 'node:http';
import type { ChaosLoadPlan, ChaosLoadResult } from './chaos-plan.ts';
import { greetingWebhook, SIGNATURE_HEADER, sharedNow } from './e2e-plan.ts';
import { answerOnePlan } from './fork-load.ts';

answerOnePlan<ChaosLoadPlan, ChaosLoadResult>('chaos', run);

async function run(plan: ChaosLoadPlan): Promise<ChaosLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const result: ChaosLoadResult = { sent: 0, acknowledged: [], refusals: {}, startedAt: sharedNow(), endedAt: 0 };
  const giveUpAt = result.startedAt + plan.seconds * 1000 + plan.giveUpAfterMs;
  const deliver = async (sequence: number) => {
    const webhook = greetingWebhook(plan, sequence);
    result.sent += 1;
    for (let attempt = 0; sharedNow() < giveUpAt; attempt += 1) {
      const outcome = await post(plan.urls[(sequence + attempt) % plan.urls.length]!, agent, webhook);
      if (outcome === 200) {
        result.acknowledged.push(webhook.name);
        return;
      }
      result.refusals[outcome] = (result.refusals[outcome] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, plan.retryAfterMs));
    }
  };
  if (plan.mode === 'paced') await paced(plan, result.startedAt, deliver);
  else await flood(plan, result.startedAt, deliver);
  result.endedAt = sharedNow();
  agent.destroy();
  return result;
}

/** `count` messages on an even schedule over `seconds` (an open loop: slow answers do not slow it). */
async function paced(plan: ChaosLoadPlan, startedAt: number, deliver: (sequence: number) => Promise<void>): Promise<void> {
  const rate = plan.count / plan.seconds;
  const deliveries: Promise<void>[] = [];
  let sent = 0;
  while (sent < plan.count) {
    const due = Math.min(plan.count, Math.floor(((sharedNow() - startedAt) / 1000) * rate) + 1);
    for (; sent < due; sent += 1) deliveries.push(deliver(sent));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(deliveries);
}

/** `connections` senders, each sending its next message once the last was acknowledged. */
async function flood(plan: ChaosLoadPlan, startedAt: number, deliver: (sequence: number) => Promise<void>): Promise<void> {
  let next = 0;
  const sender = async () => {
    while (sharedNow() - startedAt < plan.seconds * 1000) await deliver(next++);
  };
  await Promise.all(Array.from({ length: plan.connections }, sender));
}

/** One attempt: the status, or the error code when there was no answer. */
function post(url: string, agent: http.Agent, webhook: { body: string; signature: string }): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.request(url, {
      method: 'POST',
      agent,
      timeout: 10_000,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(webhook.body), [SIGNATURE_HEADER]: webhook.signature },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve('ECONNRESET'));
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.name));
    request.end(webhook.body);
  });
}
