/**
 * What the install benchmark's load process is asked to do and reports back. Plain, erasable
 * TypeScript: the load process runs it with Node's own type stripping.
 */

export interface InstallLoadPlan {
  /** The source's webhook URL. */
  url: string;
  /** The source's webhook_secret: every request is signed with it. */
  secret: string;
  /** Webhooks per second, on a fixed schedule (an open loop: slow answers do not slow it). */
  rate: number;
  /** Makes this run's event ids unique across rounds. */
  idPrefix: string;
}

/** One webhook: when it was sent (shared clock), how long its answer took, and the answer (an HTTP status or an error code). */
export type LoadRecord = [sentAt: number, latencyMs: number, outcome: number | string];

export interface InstallLoadResult {
  startedAt: number;
  endedAt: number;
  records: LoadRecord[];
}
