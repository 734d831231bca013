/**
 * What the chaos benchmark's load process is asked to do and reports back. Plain, erasable
 * TypeScript: the load process runs it with Node's own type stripping.
 */

export interface ChaosLoadPlan {
  /** The webhook URL of the source on each instance, as a load balancer would spread them. */
  urls: string[];
  secret: string;
  subscribers: number;
  /** Names this phase's messages, so every name (and event id) in a run is unique. */
  prefix: string;
  /** `paced`: `count` messages spread evenly over `seconds`; `flood`: `connections` senders back to back for `seconds`. */
  mode: 'paced' | 'flood';
  count: number;
  seconds: number;
  connections: number;
  /** Like a platform, a message not acknowledged is sent again (to the next instance) this long after. */
  retryAfterMs: number;
  /** A message still not acknowledged this long after the load's end is given up. */
  giveUpAfterMs: number;
}

export interface ChaosLoadResult {
  /** Messages sent at least once. */
  sent: number;
  /** Names of the messages answered 200 (each once, whatever the attempts). */
  acknowledged: string[];
  /** Attempts that were not answered 200, by HTTP status or error code. */
  refusals: Record<string, number>;
  startedAt: number;
  endedAt: number;
}
