/** What the ingest benchmark's load process is asked to do, and what it reports back. */

export interface LoadPlan {
  /** The webhook URL to post to. */
  url: string;
  connections: number;
  /** Load sent first and not measured: JIT, pools and connections warm up. */
  warmupSeconds: number;
  durationSeconds: number;
  /** The source's webhook_secret: every request is signed with it. */
  secret: string;
  /** Makes this arm's event ids unique across arms and rounds. */
  idPrefix: string;
}

export interface LoadResult {
  /** 2xx answers in the measured part. */
  ok: number;
  /** Non-2xx answers, socket errors and time-outs in the measured part. */
  failed: number;
  /** Events carried by the requests answered 2xx. */
  events: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}
