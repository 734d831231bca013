/**
 * What the e2e benchmark's load process is asked to do and reports back, the webhooks it posts,
 * and the clock both processes stamp times with. Plain, erasable TypeScript: the load process
 * runs it with Node's own type stripping.
 */
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';

export const SIGNATURE_HEADER = 'x-bot-signature';

export interface E2eLoadPlan {
  /** The source's webhook URL. */
  url: string;
  /** The source's webhook_secret: every request is signed with it. */
  secret: string;
  /** Message `n` comes from subscriber `n % subscribers`. */
  subscribers: number;
  /** Names the messages of this phase, so every name (and event id) in a run is unique. */
  prefix: string;
  /** `paced`: `rate` messages/s on a schedule, whatever the answers; `flood`: `connections` senders back to back (autocannon). */
  mode: 'paced' | 'flood';
  rate: number;
  connections: number;
  seconds: number;
  /** Paced only: send exactly this many messages (at `rate`) instead of `rate × seconds`. */
  count?: number;
}

export interface E2eLoadResult {
  /** `[name, ackedAt]` per webhook answered 200, ackedAt on the shared clock. */
  acks: [string, number][];
  failed: number;
  /** Why requests failed: an HTTP status or an error code, with how many. */
  failures: Record<string, number>;
  /** Shared-clock times of the first send and the last answer. */
  startedAt: number;
  endedAt: number;
  /** Paced only: when the last request was sent (the schedule kept, or not). */
  lastSentAt: number;
  /** CPU time the load process used, in ms. */
  cpuMs: number;
}

/**
 * Milliseconds on a clock that processes of one machine share, with sub-millisecond resolution:
 * each process's wall-clock origin plus its monotonic time since.
 */
export function sharedNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Message `sequence` of a phase: "my name is <name>", so the greeting reply is "Hello <name>!". */
export function greetingWebhook(plan: Pick<E2eLoadPlan, 'secret' | 'subscribers' | 'prefix'>, sequence: number): { name: string; body: string; signature: string } {
  const name = `${plan.prefix}${sequence}`;
  const subscriber = `user-${sequence % plan.subscribers}`;
  const body = JSON.stringify({
    events: [{ id: name, timestamp: Date.now(), sender: { id: subscriber, first_name: 'Bench' }, recipient: { id: 'bot-1' }, message: { text: `my name is ${name}` } }],
  });
  return { name, body, signature: createHmac('sha256', plan.secret).update(body).digest('hex') };
}

/** The name a greeting reply carries ("Hello <name>!"), or undefined for any other text. */
export function nameInReply(text: string): string | undefined {
  return /^Hello (.+)!$/.exec(text)?.[1];
}
