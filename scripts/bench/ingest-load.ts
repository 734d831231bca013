/**
 * The ingest benchmark's load generator, run as its own process so that sending requests never
 * shares an event loop with the server it measures. It takes one LoadPlan over IPC, posts signed
 * sample webhooks (or a platform package's recorded delivery) with autocannon (a warm-up, then the measured run) and sends back a LoadResult.
 * Plain, erasable TypeScript: started with Node's own type stripping, no loader.
 */
import type { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { LoadPlan, LoadResult } from './ingest-load-plan.ts';
import { answerOnePlan } from './fork-load.ts';
import { platformWebhook, SIGNATURE_HEADER, signedWebhook } from './ingest-payload.ts';
import { latencyPercentiles } from './measure.ts';

/** One request to send: its body, its headers (signature included) and the events it carries. */
interface Webhook {
  body: string;
  headers: Record<string, string>;
  events: number;
}

interface Tally {
  ok: number;
  failed: number;
  events: number;
  latencies: number[];
}

answerOnePlan<LoadPlan, LoadResult>('ingest', runPlan);

async function runPlan(plan: LoadPlan): Promise<LoadResult> {
  let sequence = 0;
  const numericBase = Date.now() * 1000;
  const next = (): Webhook => {
    const { delivery } = plan;
    if (delivery) return platformWebhook(delivery, plan.idPrefix, numericBase, sequence++);
    const webhook = signedWebhook(plan.secret, plan.idPrefix, sequence++);
    return { body: webhook.body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: webhook.signature }, events: webhook.events };
  };
  const warmup = newTally();
  if (plan.warmupSeconds > 0) await fire(plan, plan.warmupSeconds, next, warmup);
  const tally = newTally();
  const started = performance.now();
  const result = await fire(plan, plan.durationSeconds, next, tally);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage();
  return {
    ok: tally.ok,
    warmupOk: warmup.ok,
    cpuMs: (cpu.user + cpu.system) / 1000,
    failed: tally.failed + result.errors, // autocannon counts time-outs among its errors
    events: tally.events,
    seconds,
    requestsPerSecond: tally.ok / seconds,
    ...latencyPercentiles(tally.latencies),
  };
}

/** One autocannon run; every request gets a fresh body, so every event id is new. */
function fire(plan: LoadPlan, seconds: number, next: () => Webhook, tally: Tally): Promise<autocannon.Result> {
  const { promise, resolve, reject } = Promise.withResolvers<autocannon.Result>();
  const instance = autocannon(
    {
      url: plan.url,
      connections: plan.connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          setupRequest: (request, context: { events?: number }) => {
            const webhook = next();
            context.events = webhook.events;
            return { ...request, body: webhook.body, headers: webhook.headers };
          },
          onResponse: (status, _body, context: { events?: number }) => {
            if (status >= 200 && status < 300) tally.events += context.events ?? 0;
          },
        },
      ],
    },
    (error: unknown, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
  );
  // The instance passes the client first; @types/autocannon still describes the older signature.
  (instance as EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, responseTimeMs: number) => {
    if (status < 200 || status >= 300) tally.failed += 1;
    else {
      tally.ok += 1;
      tally.latencies.push(responseTimeMs);
    }
  });
  return promise;
}

function newTally(): Tally {
  return { ok: 0, failed: 0, events: 0, latencies: [] };
}
