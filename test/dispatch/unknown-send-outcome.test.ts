import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

// A reply whose outcome the host does not know: recorded `pending` (the send was about to start,
// or was on the wire) when the host running it died. The instance that takes the event over
// decides from the channel's `idempotentSends` whether to send it again.
let h: ConversationHarness;
before(async () => {
  h = await ConversationHarness.start();
});
after(() => h.close());

interface Interrupted {
  inboundEventId: string;
  sendKey: string;
  /** Messages at the platform before the event was left for a takeover. */
  receivedBefore: number;
}

/**
 * Delivers one message and waits for its reply, then leaves its event as a host that died while
 * sending it would: running under a claim not renewed for an hour, so the harness's dispatcher
 * takes it over at its next poll. One transaction: nothing takes it over half left.
 */
async function answeredThenInterrupted(eventId: string, sender: string): Promise<Interrupted> {
  const before = h.platform.received.length;
  assert.equal(await h.deliver([sampleEvent(eventId, sender, `my name is ${sender}`)]), 200);
  await h.settled([eventId]);
  await h.platform.waitFor(before + 1);
  const db = h.app.database.db;
  const event: { id: string } = await db('inbound_events').where({ event_id: eventId }).first('id');
  const send: { send_key: string } = await db('outbound_messages').where({ inbound_event_id: event.id }).first('send_key');
  const receivedBefore = h.platform.received.length;
  await db.transaction(async (trx) => {
    await trx('outbound_messages').where({ send_key: send.send_key }).update({ status: 'pending', mid: null, sent_at: null });
    await trx('workflow_runs').where({ inbound_event_id: event.id }).update({ status: 'running', finished_at: null });
    // The host died inside the sending step: that step and those after it were never recorded.
    const position = Number(send.send_key.split(':')[1]);
    const runs = trx('workflow_runs').where({ inbound_event_id: event.id }).select('id');
    await trx('workflow_run_steps').whereIn('run_id', runs).where('position', '>=', position).delete();
    await trx('inbound_events').where({ id: event.id }).update({ status: 'running', claim_token: randomUUID(), claimed_at: trx.raw(`now() - interval '1 hour'`) });
  });
  return { inboundEventId: event.id, sendKey: send.send_key, receivedBefore };
}

/** Waits for the takeover to end the event; returns its row. */
async function takenOver(eventId: string): Promise<{ status: string; attempts: number }> {
  await h.settled([eventId]);
  return h.app.database.db('inbound_events').where({ event_id: eventId }).first('status', 'attempts');
}

test('a channel whose platform drops repeated keys gets the unknown send again, with the same key: delivered once, not lost', async () => {
  assert.equal(h.app.services.channels.running('sample')?.description.capabilities.idempotentSends, true, 'the sample channel declares idempotentSends');
  const { sendKey, receivedBefore } = await answeredThenInterrupted('unknown-1', 'uma');

  assert.deepEqual(await takenOver('unknown-1'), { status: 'done', attempts: 2 });
  const again = h.platform.received.slice(receivedBefore);
  assert.deepEqual(again.map((message) => [message.idempotencyKey, message.body.message.text]), [[sendKey, 'Hello uma!']], 'sent again once, under its own key');
  assert.equal(h.platform.delivered().filter((message) => message.idempotencyKey === sendKey).length, 1, 'the platform shows it once');
  const record = await h.app.database.db('outbound_messages').where({ send_key: sendKey }).first('status', 'attempts', 'mid');
  assert.equal(record.status, 'sent');
  assert.equal(record.attempts, 2);
  assert.ok(record.mid, 'marked with the mid the platform answered');
});

test('a channel without idempotentSends never gets an unknown send again: it is marked uncertain (at most once)', async (t) => {
  const channel = h.app.services.channels.running('sample')!;
  // The same channel, declaring what a platform without idempotency keys would: the outbox reads
  // the flag from the running channel's description at each send.
  const capabilities = channel.description.capabilities as { idempotentSends?: boolean };
  capabilities.idempotentSends = false;
  t.after(() => (capabilities.idempotentSends = true));
  const { sendKey, receivedBefore } = await answeredThenInterrupted('unknown-2', 'vic');

  assert.deepEqual(await takenOver('unknown-2'), { status: 'done', attempts: 2 }, 'the event still ends: its reply is accounted for');
  assert.equal(h.platform.received.length, receivedBefore, 'nothing sent again');
  const record = await h.app.database.db('outbound_messages').where({ send_key: sendKey }).first('status');
  assert.equal(record.status, 'uncertain');
});
