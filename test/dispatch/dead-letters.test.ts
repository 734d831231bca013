import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listenToInbox } from '../support/claim-events.ts';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

// One attempt per event: a failure is a dead letter at once.
let h: ConversationHarness;
before(async () => {
  h = await ConversationHarness.start({ maxAttempts: 1 });
});
after(() => h.close());

test('a run that fails on its last attempt leaves a dead letter; retrying it once the cause is fixed delivers the reply', async (t) => {
  h.platform.failNext.push(500);
  assert.equal(await h.deliver([sampleEvent('dead-1', 'hank', 'my name is Hank')]), 200);
  const [row] = [...(await h.settled(['dead-1'])).values()];
  assert.equal(row!.status, 'failed');
  assert.match(row!.reason!, /BOT_ERR_PLUGIN_THREW|PLATFORM_STATUS|HTTP 500/);

  const letters = await h.app.request('GET', `/api/inbound-events?status=failed&sourceId=${h.source.id}`, { as: 'viewer' });
  assert.equal(letters.status, 200);
  assert.deepEqual(letters.body.items.map((item: { eventId: string }) => item.eventId), ['dead-1']);
  const [letter] = letters.body.items;
  assert.equal(letter.attempts, 1);

  assert.equal((await h.app.request('POST', `/api/inbound-events/${letter.id}/retry`, { as: 'viewer' })).status, 403);
  const listener = await listenToInbox(h.app.database.url);
  t.after(() => listener.close());
  const retried = await h.app.request('POST', `/api/inbound-events/${letter.id}/retry`, { as: 'editor' });
  assert.equal(retried.status, 200, retried.text);
  assert.deepEqual([retried.body.status, retried.body.attempts], ['queued', 0], 'with a fresh set of attempts');
  assert.equal(await listener.received(), 1, 'the dispatchers are woken, not left to their poll');
  const [after] = [...(await h.settled(['dead-1'])).values()];
  assert.equal(after!.status, 'done');
  const [reply] = await h.platform.waitFor(1);
  assert.equal(reply!.body.message.text, 'Hello Hank!');

  const again = await h.app.request('POST', `/api/inbound-events/${letter.id}/retry`, { as: 'editor' });
  assert.equal(again.status, 409, 'a done event is not run again');
  assert.equal(again.body.error.code, 'BOT_ERR_INBOUND_EVENT_NOT_RETRYABLE');
  assert.equal((await h.app.request('POST', '/api/inbound-events/00000000-0000-4000-8000-000000000000/retry', { as: 'editor' })).status, 404);
});
