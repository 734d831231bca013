import { addClaims, formatClaims, TIMER_TRIGGERS, timerClaims } from './burst-claims.ts';
import type { BurstScenario, ScenarioResult } from './burst-scenario.ts';
import { formatMs, median, printTable } from './measure.ts';

/** Issue 13's targets, on a quiet machine. */
export const LAST_REPLY_TARGET_MS = 200;
export const P99_TARGET_MS = 100;

/** One round: a result per scenario, in the order of the scenarios. */
export type BurstRound = ScenarioResult[];

export function printBurstRound(round: BurstRound, index: number, scenarios: BurstScenario[]): void {
  printTable(`Round ${index + 1}`, [
    ['scenario', 'acked', 'posting', 'last 200 → last reply', 'post → reply p50', 'p99', 'reply gap p50', 'in order', 'missing', 'dup', 'claims by trigger'],
    ...round.map((result, place) => [
      scenarios[place]!.label,
      `${result.acked}/${result.posted}`,
      formatMs(result.postingMs),
      formatMs(result.lastReplyMs),
      formatMs(result.p50Ms),
      formatMs(result.p99Ms),
      formatMs(result.replyGapMs),
      `${result.subscribersInOrder}/${scenarios[place]!.subscribers}`,
      String(result.missing.length),
      String(result.duplicated),
      formatClaims(result.claims),
    ]),
  ]);
  for (const [place, result] of round.entries()) printProblems(scenarios[place]!.label, result);
}

function printProblems(label: string, result: ScenarioResult): void {
  if (Object.keys(result.failures).length > 0) console.warn(`  ${label}: webhooks not acknowledged: ${JSON.stringify(result.failures)}`);
  for (const detail of [...result.outOfOrder, ...result.missing]) console.warn(`  ${label}: ${detail}`);
  if (result.duplicated > 0) console.warn(`  ${label}: ${result.duplicated} replies came twice`);
  const timers = timerClaims(result.claims);
  if (timers > 0) console.warn(`  ${label}: ${timers} claim(s) came by a timer (${TIMER_TRIGGERS.join(', ')}): a message waited for one, or the poll's tick fell inside the burst and claimed first (then the latencies show no wait)`);
}

export function printBurstSummary(rounds: BurstRound[], scenarios: BurstScenario[]): void {
  console.log(`\nMedians of ${rounds.length} round(s), (min–max) beside each`);
  let met = true;
  for (const [place, scenario] of scenarios.entries()) {
    const results = rounds.map((round) => round[place]!);
    const lastReply = spread(results.map((result) => result.lastReplyMs));
    const p99 = spread(results.map((result) => result.p99Ms));
    met &&= lastReply.median <= LAST_REPLY_TARGET_MS && p99.median <= P99_TARGET_MS;
    console.log(
      `  ${scenario.label}: last reply ${lastReply.text} after the last post's 200 (target ≤ ${LAST_REPLY_TARGET_MS} ms); ` +
        `post → reply p50 ${spread(results.map((result) => result.p50Ms)).text}, p99 ${p99.text} (target ≤ ${P99_TARGET_MS} ms)`,
    );
    const of = (pick: (result: ScenarioResult) => number) => spread(results.map(pick)).text;
    console.log(`    posting ${of((result) => result.postingMs)}, reply gap p50 ${of((result) => result.replyGapMs)}; claims over all rounds: ${formatClaims(addClaims(results.map((result) => result.claims)))}`);
  }
  const all = rounds.flat();
  const faithful = all.every((result) => result.outOfOrder.length === 0 && result.missing.length === 0 && result.duplicated === 0 && result.acked === result.posted);
  const timers = timerClaims(addClaims(all.map((result) => result.claims)));
  console.log(faithful ? "every subscriber's replies arrived in order, each message answered exactly once" : 'a reply was out of order, missing or duplicated, or a post failed: see above');
  console.log(timers === 0 ? 'no message waited for a timer (no poll or retry claims)' : `${timers} claim(s) came by a timer (${TIMER_TRIGGERS.join(', ')}): see above`);
  console.log(met ? 'targets met' : 'targets NOT met');
}

/** The median with the min–max of the rounds: `41.20 ms (38.10–47.90)`. */
function spread(values: number[]): { median: number; text: string } {
  const middle = median(values);
  const range = `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
  return { median: middle, text: `${formatMs(middle)} (${range})` };
}
