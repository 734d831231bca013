import type { Knex } from 'knex';
import { claimsSince, readClaims, type Claims } from './burst-claims.ts';
import type { BurstLoadPlan, BurstLoadResult, BurstPost } from './burst-plan.ts';
import { describeMissing, waitForReplies } from './e2e-phase.ts';
import type { BenchPlatform } from './e2e-platform.ts';
import { runLoadProcess } from './fork-load.ts';
import { latencyPercentiles, median } from './measure.ts';

const LOAD_ENTRY = new URL('./burst-load.ts', import.meta.url);
/** After the last reply, how long a late duplicate still counts for this scenario. */
const SETTLE_MS = 250;

/** `subscribers` post at once, each `messagesEach` messages back to back. */
export interface BurstScenario {
  label: string;
  subscribers: number;
  messagesEach: number;
}

export interface ScenarioContext {
  db: Knex;
  platform: BenchPlatform;
  hostUrl: string;
  metricsToken: string;
  webhookUrl: string;
  webhookSecret: string;
}

/** What one scenario of one round measured. */
export interface ScenarioResult {
  posted: number;
  acked: number;
  /** Posts not answered 200: status or error code, with how many. */
  failures: Record<string, number>;
  /** The first post → the last post's 200: how fast the subscribers typed. */
  postingMs: number;
  /** The last post's 200 → the last reply at the platform. */
  lastReplyMs: number;
  /** Post → its reply at the platform, per message. */
  p50Ms: number;
  p99Ms: number;
  /** Median time between two replies in a row to one subscriber. */
  replyGapMs: number;
  subscribersInOrder: number;
  /** `user-3: replies in the order 0, 2, 1, …` for each subscriber answered out of order. */
  outOfOrder: string[];
  /** For each acknowledged message with no reply, what the database says of it. */
  missing: string[];
  /** Replies beyond the first, to the same message. */
  duplicated: number;
  /** Claims the host made during the scenario, by trigger. */
  claims: Claims;
}

/** Runs one scenario in a fresh load process, waits for every reply, and measures. */
export async function runBurstScenario(context: ScenarioContext, scenario: BurstScenario, prefix: string): Promise<ScenarioResult> {
  const { platform } = context;
  const claimsBefore = await readClaims(context.hostUrl, context.metricsToken);
  const duplicatesBefore = platform.duplicates;
  const plan: BurstLoadPlan = { url: context.webhookUrl, secret: context.webhookSecret, subscribers: scenario.subscribers, messagesEach: scenario.messagesEach, prefix };
  const { posts } = await runLoadProcess<BurstLoadPlan, BurstLoadResult>(LOAD_ENTRY, plan);
  const acked = posts.filter((post) => post.status === '200');
  const missing = await waitForReplies(platform, acked.map((post) => post.name));
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const claims = claimsSince(claimsBefore, await readClaims(context.hostUrl, context.metricsToken));
  const answered = acked.filter((post) => platform.arrivals.has(post.name));
  const outOfOrder = findOutOfOrder(answered, platform.arrivals);
  return {
    posted: posts.length,
    acked: acked.length,
    failures: countFailures(posts),
    postingMs: Math.max(...posts.map((post) => post.answeredAt)) - Math.min(...posts.map((post) => post.postedAt)),
    lastReplyMs: answered.length === 0 ? Number.NaN : Math.max(...answered.map((post) => platform.arrivals.get(post.name)!)) - Math.max(...acked.map((post) => post.answeredAt)),
    ...latencyPercentiles(answered.map((post) => platform.arrivals.get(post.name)! - post.postedAt)),
    replyGapMs: median(replyGaps(answered, platform.arrivals)),
    subscribersInOrder: scenario.subscribers - outOfOrder.length,
    outOfOrder,
    missing: await describeMissing(context.db, missing),
    duplicated: platform.duplicates - duplicatesBefore + acked.filter((post) => platform.answeredTwice.has(post.name)).length,
    claims,
  };
}

/** Each subscriber whose replies reached the platform in another order than its messages were posted. */
function findOutOfOrder(answered: BurstPost[], arrivals: Map<string, number>): string[] {
  const problems: string[] = [];
  for (const [subscriber, posts] of Map.groupBy(answered, (post) => post.subscriber)) {
    const byArrival = posts.toSorted((a, b) => arrivals.get(a.name)! - arrivals.get(b.name)!);
    const byIndex = posts.toSorted((a, b) => a.index - b.index);
    if (byArrival.some((post, place) => post !== byIndex[place])) problems.push(`user-${subscriber}: replies in the order ${byArrival.map((post) => post.index).join(', ')}`);
  }
  return problems;
}

/** The time between each two replies in a row to one subscriber. */
function replyGaps(answered: BurstPost[], arrivals: Map<string, number>): number[] {
  const gaps: number[] = [];
  for (const posts of Map.groupBy(answered, (post) => post.subscriber).values()) {
    const times = posts.map((post) => arrivals.get(post.name)!).sort((a, b) => a - b);
    for (let place = 1; place < times.length; place += 1) gaps.push(times[place]! - times[place - 1]!);
  }
  return gaps;
}

function countFailures(posts: BurstPost[]): Record<string, number> {
  const failures: Record<string, number> = {};
  for (const post of posts) if (post.status !== '200') failures[post.status] = (failures[post.status] ?? 0) + 1;
  return failures;
}
