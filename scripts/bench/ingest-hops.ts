import { performance } from 'node:perf_hooks';
import type { ChannelCalls } from '../../host/channels/calls/channel-calls.ts';
import type { ChannelRegistry } from '../../host/channels/channel-registry.ts';
import type { InboxStore } from '../../host/inbox/inbox-store.ts';
import { latencyPercentiles } from './measure.ts';

/** The two waits of a production webhook inside the host: the channel's runner, then the inbox. */
export interface HopLatencies {
  /** From the call to the channel's sandbox until its decoded events are back. */
  call: { p50Ms: number; p99Ms: number };
  /** From the inbox commit until the events are in PostgreSQL (its shared INSERT included). */
  commit: { p50Ms: number; p99Ms: number };
}

/**
 * Times each channel call and inbox commit the host makes, so the ingest benchmark can say where a
 * production request waits: a request's latency is the load process's figure, these are two of
 * its parts, and the rest is the host's HTTP handling and its event loop's turns. The wrapped
 * objects behave as before; only the instances given are timed, the classes are untouched.
 */
export class HopTimer {
  #calls: number[] = [];
  #commits: number[] = [];

  /** Times `channels.call` from now on. */
  timeCalls(channels: ChannelRegistry<ChannelCalls>): void {
    const call = channels.call.bind(channels);
    channels.call = (name, use) => this.#timed(this.#calls, () => call(name, use));
  }

  /** Times `inbox.commit` from now on. */
  timeCommits(inbox: InboxStore): void {
    const commit = inbox.commit.bind(inbox);
    inbox.commit = (received) => this.#timed(this.#commits, () => commit(received));
  }

  /** What was timed since the last call (warm-up included), and a fresh start. */
  take(): HopLatencies | undefined {
    const latencies = this.#calls.length > 0 && this.#commits.length > 0 ? { call: latencyPercentiles(this.#calls), commit: latencyPercentiles(this.#commits) } : undefined;
    this.#calls = [];
    this.#commits = [];
    return latencies;
  }

  #timed<T>(samples: number[], run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const promise = run();
    // Only completed hops: a refused call or commit ends the request another way.
    promise.then(() => samples.push(performance.now() - started), () => {});
    return promise;
  }
}
