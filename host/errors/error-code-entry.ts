/**
 * One row of the error table. The optional flags name the classes of codes that callers treat
 * alike, so each class is read from the table (`codesWhere`) instead of kept as a string set.
 */
export interface ErrorCodeEntry {
  /** The HTTP status a route answers with this code. */
  readonly status: number;
  /** Whether the error's message may reach a client. */
  readonly expose: boolean;
  readonly description: string;
  /** A send failed with this code before the platform could get it, so sending again is safe. */
  readonly notDelivered?: true;
  /** Only the host gives this code: a runner that answers with it is re-coded as a plugin throw. */
  readonly hostOnly?: true;
  /** The call met a sandbox that was closing: a replacement of the channel may take it. */
  readonly sandboxClosing?: true;
  /** A refusal of the egress policy, worth a log line (not a failure to reach the platform). */
  readonly egressRefusal?: true;
  /**
   * A 5xx that reports a state the caller waits out (still starting, a channel disabled or
   * restarting), not a failure of the host: one warning line without a stack, where a failure's
   * stack is logged at error. A readiness probe or a platform retrying must not fill the log.
   */
  readonly passingState?: true;
}

/** The names of the flags of {@link ErrorCodeEntry}. */
export type ErrorCodeClass = 'notDelivered' | 'hostOnly' | 'sandboxClosing' | 'egressRefusal' | 'passingState';
