import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What an attempt at an inbound event came to, as counted (see InboundEventProcessor.process). */
export type AttemptOutcome = 'done' | 'skipped' | 'retry' | 'failed' | 'retry_after';

/** What became of one reply's send (see LiveOutbox). */
export type SendResult = 'sent' | 'failed' | 'uncertain' | 'resent';

/** Longest a scrape waits for the inbox counts; a slow database leaves those gauges out. */
const INBOX_QUERY_TIMEOUT_MS = 1_000;

/**
 * The host's Prometheus metrics (`GET /metrics`), in a registry of its own (several apps may
 * share a process in tests). Counters are per instance; the inbox gauges are read from the
 * database at scrape time, so every instance reports the same totals.
 */
export class HostMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'bot_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'bot_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  /**
   * From a platform's webhook arriving to its answer, by channel and outcome. The buckets bracket
   * the shortest deadline a platform gives (Slack retries a delivery not answered within 3 s), so
   * `le="3"` tells how many answers met it.
   */
  readonly webhookAck = new Histogram({
    name: 'bot_webhook_ack_seconds',
    help: "Time from a platform's webhook to its answer, by channel and outcome (accepted, rejected, invalid, failed)",
    labelNames: ['channel', 'outcome'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
    registers: [this.registry],
  });
  readonly eventAttempts = new Counter({
    name: 'bot_inbound_event_attempts_total',
    help: 'Attempts at inbound events, by outcome (done, skipped, retry, failed = dead letter, retry_after)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly sends = new Counter({
    name: 'bot_outbound_sends_total',
    help: 'Reply sends, by result (sent, failed, uncertain, resent = sent again in place)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly egressRefused = new Counter({
    name: 'bot_egress_refused_total',
    help: "Plugins' fetch requests the host refused or could not complete, by channel and BOT_ERR_EGRESS_* code",
    labelNames: ['channel', 'code'] as const,
    registers: [this.registry],
  });
  readonly channelRunnerRestarts = new Counter({
    name: 'bot_channel_runner_restarts_total',
    help: "Times a channel's runner process ended unplanned (crashed, or killed by the watchdog for its memory or CPU) and was started again",
    labelNames: ['channel'] as const,
    registers: [this.registry],
  });
  readonly eventClaims = new Counter({
    name: 'bot_inbound_event_claims_total',
    help: 'Inbound events claimed by this instance, by what brought the claim: handoff (the conversation\'s previous event just ended), notify, released, slot, more, start, reconnect; retry and poll are timers (a message waited for one)',
    labelNames: ['trigger'] as const,
    registers: [this.registry],
  });

  constructor(db: Knex, options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'bot_inbound_events',
      help: 'Inbound events not yet finished (queued, running) and dead letters (failed), all instances',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const counts = await countInbox(db).catch(() => undefined);
        for (const status of ['queued', 'running', 'failed'] as const) {
          if (counts) this.set({ status }, counts.get(status) ?? 0);
        }
      },
    });
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

async function countInbox(db: Knex): Promise<Map<string, number>> {
  const { rows } = await db.raw<{ rows: { status: string; n: number }[] }>(
    `SELECT status, count(*)::int AS n FROM inbound_events WHERE status IN ('queued', 'running', 'failed') GROUP BY status`,
  ).timeout(INBOX_QUERY_TIMEOUT_MS, { cancel: true });
  return new Map(rows.map((row) => [row.status, row.n]));
}
