/**
 * The e2e benchmark's load generator, its own process so that sending never shares an event
 * loop with the host or the platform it measures. It takes one E2eLoadPlan over IPC and sends
 * back an E2eLoadResult: when each message's webhook was acknowledged (200). Paced mode keeps a
 * fixed schedule (an open loop: a slow answer does not slow the sending); flood mode runs
 * autocannon's back-to-back senders. Plain, erasable TypeScript, started without a loader.
 */
import type { EventEmitter } from 'node:events';
import http from 'node:http';
import autocannon from 'autocannon';
import { greetingWebhook, SIGNATURE_HEADER, sharedNow, type E2eLoadPlan, type E2eLoadResult } from './e2e-plan.ts';

process.once('message', (plan: E2eLoadPlan) => {
  const run = plan.mode === 'paced' ? paced(plan) : flood(plan);
  run.then(
    (result) => {
      const usage = process.cpuUsage();
      process.send!({ ...result, cpuMs: (usage.user + usage.system) / 1000 }, () => process.disconnect?.());
    },
    (error: unknown) => {
      console.error('e2e load failed:', error);
      process.exit(1);
    },
  );
});

async function paced(plan: E2eLoadPlan): Promise<E2eLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = plan.count ?? Math.round(plan.rate * plan.seconds);
  const result: E2eLoadResult = { acks: [], failed: 0, failures: {}, startedAt: sharedNow(), endedAt: 0, lastSentAt: 0, cpuMs: 0 };
  const answers: Promise<void>[] = [];
  let sent = 0;
  while (sent < total) {
    // Everything due by now goes out now, so timer lateness never lowers the rate.
    const due = Math.min(total, Math.floor(((sharedNow() - result.startedAt) / 1000) * plan.rate) + 1);
    for (; sent < due; sent += 1) answers.push(post(plan, agent, sent, result));
    result.lastSentAt = sharedNow();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(answers);
  result.endedAt = sharedNow();
  agent.destroy();
  return result;
}

function post(plan: E2eLoadPlan, agent: http.Agent, sequence: number, result: E2eLoadResult): Promise<void> {
  const webhook = greetingWebhook(plan, sequence);
  const { promise, resolve } = Promise.withResolvers<void>();
  const request = http.request(plan.url, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(webhook.body), [SIGNATURE_HEADER]: webhook.signature },
  });
  request.on('response', (response) => {
    response.resume();
    response.on('end', () => {
      if (response.statusCode === 200) result.acks.push([webhook.name, sharedNow()]);
      else countFailure(result, String(response.statusCode));
      resolve();
    });
  });
  request.on('error', (error: NodeJS.ErrnoException) => {
    countFailure(result, error.code ?? error.name);
    resolve();
  });
  request.end(webhook.body);
  return promise;
}

function flood(plan: E2eLoadPlan): Promise<E2eLoadResult> {
  let sequence = 0;
  const result: E2eLoadResult = { acks: [], failed: 0, failures: {}, startedAt: sharedNow(), endedAt: 0, lastSentAt: 0, cpuMs: 0 };
  const { promise, resolve, reject } = Promise.withResolvers<E2eLoadResult>();
  const instance = autocannon(
    {
      url: plan.url,
      connections: plan.connections,
      duration: plan.seconds,
      requests: [
        {
          method: 'POST',
          // One request in flight per connection: its context names the message being answered.
          setupRequest: (request, context: { name?: string }) => {
            const webhook = greetingWebhook(plan, sequence++);
            context.name = webhook.name;
            return { ...request, body: webhook.body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: webhook.signature } };
          },
          onResponse: (status, _body, context: { name?: string }) => {
            if (status === 200) result.acks.push([context.name!, sharedNow()]);
          },
        },
      ],
    },
    (error: unknown, summary: autocannon.Result) => {
      if (error) return reject(error);
      if (summary.errors > 0) result.failures['socket errors and time-outs'] = summary.errors;
      result.failed += summary.errors;
      result.endedAt = sharedNow();
      result.lastSentAt = result.endedAt;
      resolve(result);
    },
  );
  // The instance passes the client first; @types/autocannon still describes the older signature.
  (instance as EventEmitter).on('response', (_client: unknown, status: number) => {
    if (status !== 200) countFailure(result, String(status));
  });
  return promise;
}

function countFailure(result: E2eLoadResult, reason: string): void {
  result.failed += 1;
  result.failures[reason] = (result.failures[reason] ?? 0) + 1;
}
