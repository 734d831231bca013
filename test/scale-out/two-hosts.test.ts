import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import type { HostProcess } from '../support/host-process.ts';
import { HostFleet } from './host-fleet.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { sampleEvent } from '../dispatch/conversation-harness.ts';
import { readReplyRecords, waitUntilFinished } from '../dispatch/crash-snapshot.ts';
import { FakePlatform } from '../dispatch/fake-platform.ts';
import { postSignedWebhook, setUpGreetingOverHttp } from '../dispatch/greeting-over-http.ts';

// Two real `npm start` processes on one database, as behind a load balancer: the webhooks of
// each conversation alternate between them.
const AUTH_SECRET = 'scale-out-auth-secret-0123456789abcdef-01234';
const SUBSCRIBERS = ['ada', 'bob', 'cyd', 'dee', 'eve', 'fay', 'gus', 'hal'];
const ROUNDS = 6;

let database: TestDatabase;
let platform: FakePlatform;
let fleet: HostFleet;
let sourceRef: string;

before(async () => {
  database = await createTestDatabase();
  platform = await FakePlatform.start();
  fleet = new HostFleet(database.url, AUTH_SECRET);
  // The first host migrates the database; the second starts on it as it is.
  const first = await fleet.start();
  await fleet.start();
  ({ sourceRef } = await setUpGreetingOverHttp({ url: first.url, authSecret: AUTH_SECRET }, platform.url));
});

after(async () => {
  await fleet.close();
  await platform.close();
  await database.close();
});

const nameOf = (subscriber: string, round: number) => `${subscriber[0]!.toUpperCase()}${subscriber.slice(1)}${round}`;

test('webhooks spread over two hosts: every acknowledged event is answered exactly once, in order per conversation', async () => {
  const eventIds: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // A conversation's next message goes to the other host; a round is acknowledged before the next is sent.
    const statuses = await Promise.all(
      SUBSCRIBERS.map((subscriber, index) => {
        const eventId = `${subscriber}-${round}`;
        eventIds.push(eventId);
        const host = fleet.hosts[(index + round) % 2]!;
        return postSignedWebhook(host.url, sourceRef, [sampleEvent(eventId, subscriber, `my name is ${nameOf(subscriber, round)}`)]);
      }),
    );
    assert.deepEqual(statuses, SUBSCRIBERS.map(() => 200));
  }
  await waitUntilFinished(database.db, eventIds, 60_000);

  const records = await readReplyRecords(database.db);
  assert.deepEqual(records.map((record) => record.eventId).sort(), [...eventIds].sort(), 'one reply record per event');
  assert.deepEqual(records.filter((record) => record.status !== 'sent'), [], 'every reply sent');
  assert.equal(platform.received.length, eventIds.length, 'no send reached the platform twice');
  for (const subscriber of SUBSCRIBERS) {
    const got = platform.received.filter((message) => message.body.recipient.id === subscriber).map((message) => message.body.message.text);
    assert.deepEqual(got, Array.from({ length: ROUNDS }, (_, round) => `Hello ${nameOf(subscriber, round)}!`), `${subscriber}: in message order`);
  }
});

test('disabling and enabling a channel on one host takes effect on the other within a second', async () => {
  const [first, second] = fleet.hosts as [HostProcess, HostProcess];
  const token = signAdminToken({ sub: 'scale-out', role: 'admin' }, AUTH_SECRET, { ttl: '10m' });
  const toggle = async (action: 'enable' | 'disable') => {
    const response = await fetch(`${first.url}/api/channel/sample/${action}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200, await response.text());
  };
  const probe = (id: string) => postSignedWebhook(second.url, sourceRef, [sampleEvent(id, 'toggle-probe', 'hi')]);

  await toggle('disable');
  assert.equal(await statusWithin(1_000, 503, () => probe('toggle-off')), 503, 'the other host refuses the disabled channel within a second');
  await toggle('enable');
  assert.equal(await statusWithin(1_000, 200, () => probe('toggle-on')), 200, 'and serves it again within a second');
});

/** Calls `request` until it answers `wanted` or `withinMs` has passed; returns the last status. */
async function statusWithin(withinMs: number, wanted: number, request: () => Promise<number>): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const status = await request();
    if (status === wanted || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('SIGTERM drains: a host stopped under load answers what it accepted, and every acknowledged event is answered once', async (t) => {
  const [leaving, staying] = fleet.hosts as [HostProcess, HostProcess];
  const before = platform.received.length;
  const eventIds = SUBSCRIBERS.flatMap((subscriber) => [0, 1, 2].map((round) => `${subscriber}-drain-${round}`));
  // Each conversation's three messages in order, all conversations at once, to the host that leaves.
  const sending = Promise.all(
    SUBSCRIBERS.map(async (subscriber) => {
      const outcomes: (number | string)[] = [];
      for (const round of [0, 1, 2]) {
        const eventId = `${subscriber}-drain-${round}`;
        const events = [sampleEvent(eventId, subscriber, `my name is ${nameOf(subscriber, round + 10)}`)];
        // A load balancer sends to the other host what the leaving one no longer takes.
        const status = await postSignedWebhook(leaving.url, sourceRef, events).catch((error: Error) => String((error.cause as { code?: string })?.code ?? error.message));
        outcomes.push(status === 200 ? 200 : `${status} → ${await postSignedWebhook(staying.url, sourceRef, events)}`);
      }
      return outcomes;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  const exitCode = await leaving.stop('SIGTERM');
  const outcomes = (await sending).flat();
  assert.equal(exitCode, 0, 'the leaving host exits cleanly');
  const byLeaving = outcomes.filter((outcome) => outcome === 200).length;
  t.diagnostic(`acknowledged by the leaving host ${byLeaving}, sent on to the other ${outcomes.length - byLeaving}: ${[...new Set(outcomes)].join(', ')}`);
  assert.ok(byLeaving > 0 && byLeaving < outcomes.length, 'the stop came while the leaving host was taking messages');
  for (const outcome of outcomes) assert.ok(outcome === 200 || String(outcome).endsWith('→ 200'), `every message is acknowledged by one host: ${outcome}`);

  await waitUntilFinished(database.db, eventIds, 60_000);
  // Only these conversations: the channel-toggle probe of the test before may still be answered.
  const delivered = platform.received.slice(before).filter((message) => SUBSCRIBERS.includes(message.body.recipient.id));
  assert.equal(delivered.length, eventIds.length, 'one reply per acknowledged event, none twice');
  for (const subscriber of SUBSCRIBERS) {
    const got = delivered.filter((message) => message.body.recipient.id === subscriber).map((message) => message.body.message.text);
    assert.deepEqual(got, [10, 11, 12].map((round) => `Hello ${nameOf(subscriber, round)}!`), `${subscriber}: in message order across the handover`);
  }
});
