/**
 * What the burst benchmark's load process is asked to do and reports back. Plain, erasable
 * TypeScript: the load process runs it with Node's own type stripping.
 */
import type { E2eLoadPlan } from './e2e-plan.ts';

/** Subscribers post at once, each its own messages back to back: message `n` is subscriber `n % subscribers`'s. */
export interface BurstLoadPlan extends Pick<E2eLoadPlan, 'url' | 'secret' | 'subscribers' | 'prefix'> {
  /** Messages each subscriber posts, the next as soon as the previous got its answer. */
  messagesEach: number;
}

/** One webhook posted, times on the shared clock (see sharedNow). */
export interface BurstPost {
  /** The message's name: its event id, and the name its greeting reply carries. */
  name: string;
  subscriber: number;
  /** Its place among its subscriber's messages, from 0. */
  index: number;
  postedAt: number;
  answeredAt: number;
  /** The HTTP status, or the error code of a request that failed. */
  status: string;
}

export interface BurstLoadResult {
  posts: BurstPost[];
}
