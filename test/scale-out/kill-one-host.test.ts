import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { HostFleet } from './host-fleet.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { sampleEvent } from '../dispatch/conversation-harness.ts';
import { readReplyRecords, waitUntilFinished } from '../dispatch/crash-snapshot.ts';
import { FakePlatform } from '../dispatch/fake-platform.ts';
import { postSignedWebhook, setUpGreetingOverHttp } from '../dispatch/greeting-over-http.ts';

// Two real hosts on one database; one is killed (SIGKILL: no handler, no drain) while it holds
// work, and the other, which never restarts it, finishes that work once its lease ran out.
const AUTH_SECRET = 'kill-one-auth-secret-0123456789abcdef-012345';
const SUBSCRIBERS = ['ada', 'bob', 'cyd', 'dee', 'eve', 'fay'];
const ROUNDS = 4;
const LEASE_MS = 2_000;

const database = await createTestDatabase();
const platform = await FakePlatform.start();
// A slow platform keeps sends in flight when the host dies.
platform.respondAfterMs = 100;
const fleet = new HostFleet(database.url, AUTH_SECRET, { BOT_DISPATCH_LEASE_MS: String(LEASE_MS) });
after(async () => {
  await fleet.close('kill');
  await platform.close();
  await database.close();
});

const nameOf = (subscriber: string, round: number) => `${subscriber[0]!.toUpperCase()}${subscriber.slice(1)}${round}`;

test('a host killed under load: the other finishes its work after the lease, nothing lost, nothing delivered twice, order kept', async (t) => {
  const doomed = await fleet.start();
  const survivor = await fleet.start();
  const { sourceRef } = await setUpGreetingOverHttp({ url: survivor.url, authSecret: AUTH_SECRET }, platform.url);

  // Every message goes to the doomed host, which takes them all in; each round is acknowledged
  // before the next, so a conversation's order is the round order.
  const eventIds: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const events = SUBSCRIBERS.map((subscriber) => {
      eventIds.push(`${subscriber}-${round}`);
      return sampleEvent(`${subscriber}-${round}`, subscriber, `my name is ${nameOf(subscriber, round)}`);
    });
    assert.equal(await postSignedWebhook(doomed.url, sourceRef, events), 200);
  }
  // Killed mid-stream: some replies out, others running or in flight on the slow platform.
  await platform.waitFor(4, 30_000);
  await doomed.kill();
  const open = Number((await database.db('inbound_events').whereIn('status', ['queued', 'running']).count({ n: '*' }).first())?.n);
  t.diagnostic(`at the kill: ${open} of ${eventIds.length} events not finished, ${platform.received.length} replies at the platform`);
  assert.ok(open > 0, 'the kill interrupted work: otherwise this test proves nothing');
  const running = Number((await database.db('inbound_events').where({ status: 'running' }).count({ n: '*' }).first())?.n);
  t.diagnostic(`of those, ${running} were running under the dead host's claim`);

  await waitUntilFinished(database.db, eventIds, 60_000);

  const records = await readReplyRecords(database.db);
  assert.deepEqual(records.map((record) => record.eventId).sort(), [...eventIds].sort(), 'one reply record per event');
  assert.deepEqual(records.filter((record) => record.status !== 'sent').map((record) => record.eventId), [], 'every reply sent');
  const delivered = platform.delivered();
  assert.equal(delivered.length, eventIds.length, 'every acknowledged event answered once (a send repeated after the kill is dropped by its key)');
  for (const subscriber of SUBSCRIBERS) {
    const got = delivered.filter((message) => message.body.recipient.id === subscriber).map((message) => message.body.message.text);
    assert.deepEqual(got, Array.from({ length: ROUNDS }, (_, round) => `Hello ${nameOf(subscriber, round)}!`), `${subscriber}: in message order`);
  }
});
