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
  /** A real platform's recorded delivery to send instead of sample webhooks (the platform arms). */
  delivery?: PlatformDelivery;
}

/**
 * One delivery of a platform package's fixtures, sent over and over with its event id made unique
 * and signed afresh as the platform signs.
 */
export interface PlatformDelivery {
  headers: Record<string, string>;
  /** The body as sent, holding `idToken` where the platform's event id goes. */
  body: string;
  /** The event id as it appears in the body (a number or a string). */
  idToken: string;
  /** Events the delivery decodes to. */
  events: number;
  /** The signature scheme of the package's fixtures/channel-check.json. */
  signature: Record<string, unknown>;
  secret: string;
}

export interface LoadResult {
  /** 2xx answers in the measured part. */
  ok: number;
  /** 2xx answers during the warm-up. */
  warmupOk: number;
  /** CPU time (ms, all threads) the load process used, warm-up included. */
  cpuMs: number;
  /** Non-2xx answers, socket errors and time-outs in the measured part. */
  failed: number;
  /** Events carried by the requests answered 2xx. */
  events: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}
