/**
 * The burst benchmark's load generator, its own process so that posting never shares an event
 * loop with the host or the platform it measures. It takes one BurstLoadPlan over IPC: every
 * subscriber posts at once, each its messages back to back (the next as soon as the previous
 * got its answer), as a user typing quickly would; it sends back a BurstLoadResult. Plain,
 * erasable TypeScript, started without a loader.
 */
import type { BurstLoadPlan, BurstLoadResult, BurstPost } from './burst-plan.ts';
import { greetingWebhook, SIGNATURE_HEADER, sharedNow } from './e2e-plan.ts';
import { answerOnePlan } from './fork-load.ts';

answerOnePlan<BurstLoadPlan, BurstLoadResult>('burst', run);

async function run(plan: BurstLoadPlan): Promise<BurstLoadResult> {
  await connect(plan);
  const posts = await Promise.all(Array.from({ length: plan.subscribers }, (_, subscriber) => postBackToBack(plan, subscriber)));
  return { posts: posts.flat() };
}

/**
 * Opens a connection per subscriber (a request each, at once, to the host's liveness check) so
 * the first posts time the host, not this fresh process's connecting and first fetch.
 */
async function connect(plan: BurstLoadPlan): Promise<void> {
  const live = new URL('/health/live', plan.url);
  await Promise.all(Array.from({ length: plan.subscribers }, async () => (await fetch(live)).arrayBuffer()));
}

async function postBackToBack(plan: BurstLoadPlan, subscriber: number): Promise<BurstPost[]> {
  const posts: BurstPost[] = [];
  for (let index = 0; index < plan.messagesEach; index += 1) {
    const webhook = greetingWebhook(plan, index * plan.subscribers + subscriber);
    const postedAt = sharedNow();
    const status = await post(plan.url, webhook);
    posts.push({ name: webhook.name, subscriber, index, postedAt, answeredAt: sharedNow(), status });
  }
  return posts;
}

/** Posts one signed webhook; resolves with its status, or the error code when it failed. */
async function post(url: string, webhook: { body: string; signature: string }): Promise<string> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: webhook.signature }, body: webhook.body });
    await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? (error as Error).name;
  }
}
