/**
 * The install benchmark's load generator, its own process so that sending never shares an event
 * loop with the benchmark's timing of the install: signed sample webhooks at a fixed rate from
 * the moment it is started until it is told to stop, each answer recorded (status or error code,
 * latency). Plain, erasable TypeScript, started without a loader.
 */
import http from 'node:http';
import { sharedNow } from './e2e-plan.ts';
import { runPlanUntilStopped, type RunningLoad } from './fork-load.ts';
import type { InstallLoadPlan, InstallLoadResult, LoadRecord } from './install-load-plan.ts';
import { SIGNATURE_HEADER, signedWebhook } from './ingest-payload.ts';

const REQUEST_TIMEOUT_MS = 10_000;

runPlanUntilStopped<InstallLoadPlan, InstallLoadResult>('install', startPaced);

function startPaced(plan: InstallLoadPlan): RunningLoad<InstallLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const startedAt = sharedNow();
  const records: LoadRecord[] = [];
  const answers: Promise<void>[] = [];
  let sent = 0;
  // Everything due by now goes out now, so timer lateness never lowers the rate.
  const timer = setInterval(() => {
    const due = Math.floor(((sharedNow() - startedAt) / 1000) * plan.rate) + 1;
    for (; sent < due; sent += 1) answers.push(post(plan, agent, sent).then((record) => void records.push(record)));
  }, 1);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(answers);
      agent.destroy();
      return { startedAt, endedAt: sharedNow(), records: records.sort((a, b) => a[0] - b[0]) };
    },
  };
}

function post(plan: InstallLoadPlan, agent: http.Agent, sequence: number): Promise<LoadRecord> {
  const webhook = signedWebhook(plan.secret, plan.idPrefix, sequence);
  const sentAt = sharedNow();
  const { promise, resolve } = Promise.withResolvers<LoadRecord>();
  const done = (outcome: number | string) => resolve([sentAt, sharedNow() - sentAt, outcome]);
  const request = http.request(plan.url, {
    method: 'POST',
    agent,
    timeout: REQUEST_TIMEOUT_MS,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(webhook.body), [SIGNATURE_HEADER]: webhook.signature },
  });
  request.on('response', (response) => {
    response.resume();
    response.on('end', () => done(response.statusCode ?? 0));
    response.on('error', () => done('ECONNRESET'));
  });
  request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
  request.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.name));
  request.end(webhook.body);
  return promise;
}
