import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Dispatcher } from '../../host/dispatch/dispatcher.ts';
import { expectCreated } from '../support/expect-created.ts';
import { createGreetingWorkflow, startDispatcher } from '../support/greeting-setup.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { PLATFORM_KEY, sampleEvent, WEBHOOK_SECRET } from './conversation-harness.ts';
import { readReplyRecords, waitUntilFinished } from './crash-snapshot.ts';
import { FakePlatform } from './fake-platform.ts';

// A platform API that times out, under load: several conversations, several messages each, and
// a share of the platform's answers held longer than the host's time limit on the send call
// (BOT_SANDBOX_CALL_TIMEOUT_MS, which stops the worker and with it the request). Half of those
// the platform recorded before its answer got lost (the usual case: it got the message, the
// answer came too late); the other half never got through. The host does not know which, so it
// sends each again under the same Idempotency-Key (the sample channel declares `idempotentSends`),
// and the platform keeps one. Every reply must arrive once, and each conversation's in order.
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The host's time limit on each call into the channel, the send included. Not shorter: a call
 * that times out stops its worker, and the replacement's start (the plugin's import, 0.5 to 0.9 s
 * on a busy 2-core machine) counts against the time limit of the calls waiting for it.
 */
const CALL_TIMEOUT_MS = 1_500;
/** A held answer comes this late; the host gives up well before (and closes the connection). */
const HANG_MS = 3_000;
/** Every HUNG_EVERY-th reply to reach the platform has its first send held. */
const HUNG_EVERY = 3;
const SUBSCRIBERS = ['ann', 'ben', 'cat', 'dan', 'eli', 'fox'];
const ROUNDS = 5;

const eventIdOf = (subscriber: string, round: number) => `${subscriber}-${round}`;
const nameOf = (subscriber: string, round: number) => `${subscriber[0]!.toUpperCase()}${subscriber.slice(1)}${round}`;
/** The greeting workflow answers "my name is X" with "Hello X!": each reply names its event. */
const replyOf = (subscriber: string, round: number) => `Hello ${nameOf(subscriber, round)}!`;
const EVENT_IDS = SUBSCRIBERS.flatMap((subscriber) => Array.from({ length: ROUNDS }, (_, round) => eventIdOf(subscriber, round)));

let app: TestApp;
let platform: FakePlatform;
let dispatcher: Dispatcher;
let sourceRef: string;

before(async () => {
  platform = await FakePlatform.start();
  app = await createTestApp({
    channels: { appRoot: REPO_ROOT, sandbox: { callTimeoutMs: CALL_TIMEOUT_MS, maxHeapMb: 96, maxThreads: 4, maxQueue: 1_000, idleTimeoutMs: 10_000 } },
  });
  await app.services.channels.load();
  dispatcher = await startDispatcher(app);
  const workflow = await createGreetingWorkflow(app);
  const source = await expectCreated(app, '/api/sources', {
    name: 'Sample platform',
    channel: 'sample',
    settings: { api_url: platform.url, api_key: PLATFORM_KEY, webhook_secret: WEBHOOK_SECRET },
    defaultWorkflowId: workflow.id,
  });
  sourceRef = source.ref as string;
});

after(async () => {
  await dispatcher?.stop();
  await app?.close();
  await platform?.close();
});

/** Webhooks the host answered 503 (its channel's workers all busy with held sends), delivered again. */
let redeliveries = 0;

/**
 * Posts one signed webhook carrying `events` until the host acknowledges it, as a platform does:
 * under this load the channel's workers may all be busy with held sends, and the host answers
 * 503 rather than wait past its time limit. Returns the last status.
 */
async function deliver(events: Record<string, unknown>[]): Promise<number> {
  const raw = JSON.stringify({ events });
  const signature = createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex');
  for (let attempt = 1; ; attempt += 1) {
    const response = await app.request('POST', `/api/webhook/${sourceRef}`, { body: raw, headers: { 'content-type': 'application/json', 'x-bot-signature': signature } });
    if (response.status !== 503 || attempt === 10) return response.status;
    redeliveries += 1;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a platform whose answers time out under load gets each reply again under its key: every reply arrives once, each conversation in order', async (t) => {
  assert.equal(app.services.channels.running('sample')?.description.capabilities.idempotentSends, true, 'the sample channel declares idempotentSends');
  // The first send of every HUNG_EVERY-th reply (by first arrival) is held; sends again are not,
  // so each reply times out at most once at the platform. Recorded and unrecorded holds alternate.
  let replies = 0;
  platform.hang = ({ earlierArrivals }) => {
    if (earlierArrivals > 0) return undefined;
    replies += 1;
    if (replies % HUNG_EVERY !== 0) return undefined;
    return { ms: HANG_MS, recorded: (replies / HUNG_EVERY) % 2 === 1 };
  };
  t.after(() => (platform.hang = undefined));

  // One webhook per round, each carrying the next message of every subscriber, posted while the
  // earlier rounds are being answered: a round is acknowledged before the next is posted, so each
  // conversation's order is the round order.
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round += 1) {
    const events = SUBSCRIBERS.map((subscriber) => sampleEvent(eventIdOf(subscriber, round), subscriber, `my name is ${nameOf(subscriber, round)}`));
    assert.equal(await deliver(events), 200, `round ${round} acknowledged`);
  }
  await waitUntilFinished(app.database.db, EVENT_IDS, 60_000);
  const elapsedMs = Date.now() - started;

  const events: { event_id: string; status: string; attempts: number; reason: string | null }[] = await app.database
    .db('inbound_events')
    .whereIn('event_id', EVENT_IDS)
    .select('event_id', 'status', 'attempts', 'reason');
  assert.deepEqual(events.filter((event) => event.status !== 'done'), [], 'every event ends done');

  const records = await readReplyRecords(app.database.db);
  assert.deepEqual(records.map((record) => record.eventId).sort(), [...EVENT_IDS].sort(), 'one reply record per event, no more');
  assert.deepEqual(records.filter((record) => record.status !== 'sent'), [], 'every reply is marked sent');

  // What the users see: the first arrival of each key, in order.
  const delivered = platform.delivered();
  assert.equal(delivered.length, EVENT_IDS.length, 'every event got exactly one reply at the platform');
  for (const subscriber of SUBSCRIBERS) {
    const got = delivered.filter((message) => message.body.recipient.id === subscriber).map((message) => message.body.message.text);
    assert.deepEqual(got, Array.from({ length: ROUNDS }, (_, round) => replyOf(subscriber, round)), `${subscriber}: replies in message order`);
  }
  const byKey = new Map(records.map((record) => [record.sendKey, record]));
  for (const message of delivered) {
    const record = byKey.get(message.idempotencyKey!);
    assert.ok(record, `the platform got a send key the outbox never recorded: ${message.idempotencyKey}`);
    const [subscriber, round] = record.eventId.split('-') as [string, string];
    assert.equal(message.body.message.text, replyOf(subscriber, Number(round)), `${record.eventId}: the reply carries its own event's answer`);
  }

  // The timeout path was taken: held sends the host gave up on, recorded ones among them arriving
  // again under their key (dropped by the platform), and unrecorded ones sent again after all.
  const gaveUp = platform.hung.filter((send) => send.senderGaveUp);
  const gaveUpRecorded = gaveUp.filter((send) => send.recorded).length;
  const resent = records.filter((record) => record.attempts > 1);
  const retriedEvents = events.filter((event) => event.attempts > 1);
  t.diagnostic(
    `${EVENT_IDS.length} events in ${elapsedMs} ms (webhooks delivered again after a 503: ${redeliveries}); sends held ${platform.hung.length}, timed out at the host ${gaveUp.length} ` +
      `(recorded first ${gaveUpRecorded}, never got through ${gaveUp.length - gaveUpRecorded}); arrivals ${platform.received.length}, delivered ${delivered.length}; ` +
      `replies attempted more than once ${resent.length}, events tried more than once ${retriedEvents.length}`,
  );
  assert.ok(gaveUpRecorded > 0 && gaveUp.length - gaveUpRecorded > 0, 'both kinds of held send timed out at the host');
  assert.ok(platform.received.length > delivered.length, 'a key the platform had recorded arrived again');
  for (const send of gaveUp) {
    assert.equal(byKey.get(send.idempotencyKey!)?.status, 'sent', `${send.idempotencyKey}: timed out, then sent`);
    assert.ok(byKey.get(send.idempotencyKey!)!.attempts > 1, `${send.idempotencyKey}: attempted again after timing out`);
  }
});
