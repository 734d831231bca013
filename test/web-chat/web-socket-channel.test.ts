import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ReplyHub } from '../../host/websockets/reply-hub.ts';
import { ChatClient } from './chat-client.ts';
import { expectCreated, WebChatHarness } from './web-chat-harness.ts';

// The frame protocol and sessions, end to end: a real port, the real dispatcher, the greeting workflow.
let harness: WebChatHarness;
before(async () => {
  harness = await WebChatHarness.start();
});
after(() => harness.close());

/** Waits until the session has `count` stored replies (the workflow ran while no socket was open). */
async function storedReplies(sessionId: string, count: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = await harness.app.database.db('web_chat_replies').where({ session_id: sessionId }).select('seq');
    if (rows.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`session ${sessionId} has fewer than ${count} replies`);
}

test('a client says hello, sends a message, gets an ack, a typing frame and the workflow reply', async () => {
  const client = await ChatClient.connect(harness.socketUrl());
  try {
    const session = await client.next('session');
    assert.equal(session.resumed, false);
    assert.equal(session.lastSeq, 0);
    assert.match(session.sessionId, /^[0-9a-f-]{36}$/);
    assert.equal(typeof session.token, 'string');
    const id = client.say('hello');
    assert.deepEqual(await client.next('ack'), { type: 'ack', id, duplicate: false });
    assert.deepEqual(await client.next('typing'), { type: 'typing', on: true });
    const reply = await client.next('reply');
    assert.deepEqual(reply, { type: 'reply', seq: 1, message: { type: 'text', text: 'Hello! What is your name?' } });
  } finally {
    await client.close();
  }
});

test('reconnecting with the session token keeps the subscriber, its thread and its memory', async () => {
  const first = await ChatClient.connect(harness.socketUrl());
  const { token, sessionId } = await first.next('session');
  first.say('my name is Ada');
  assert.equal((await first.next('reply')).message.text, 'Hello Ada!');
  await first.close();

  const second = await ChatClient.connect(harness.socketUrl(), { token, lastSeq: 1 });
  try {
    const resumed = await second.next('session');
    assert.equal(resumed.sessionId, sessionId);
    assert.equal(resumed.resumed, true);
    assert.equal(resumed.lastSeq, 1, 'the seq of the latest reply of the session');
    second.say('hello again');
    assert.deepEqual((await second.next('reply')).message, { type: 'text', text: 'Hello Ada!' });
    const db = harness.app.database.db;
    const subscribers = await db('subscribers').where({ source_id: harness.source.id, foreign_id: sessionId });
    assert.equal(subscribers.length, 1, 'one subscriber for the session');
    const threads = await db('threads').where({ subscriber_id: subscribers[0].id });
    assert.equal(threads.length, 1, 'the conversation continues in the same thread');
  } finally {
    await second.close();
  }
});

test('an invalid, tampered or other-source session token is refused with an error frame and close code 4401', async () => {
  const other = await expectCreated(harness.app, '/api/sources', { name: 'Other web chat', channel: 'web', settings: {} });
  const elsewhere = await ChatClient.connect(harness.socketUrl(other.ref as string));
  const { token: otherToken } = await elsewhere.next('session');
  await elsewhere.close();
  const mine = await ChatClient.connect(harness.socketUrl());
  const { token } = await mine.next('session');
  await mine.close();
  const [header, payload, signature] = token.split('.');
  const tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: crypto.randomUUID() })).toString('base64url')}.${signature}`;
  for (const [label, bad] of [['garbage', 'not-a-token'], ['tampered', tampered], ['another source', otherToken]]) {
    const client = await ChatClient.connect(harness.socketUrl(), { token: bad });
    const error = await client.next('error');
    assert.equal(error.code, 'BOT_ERR_WS_SESSION_INVALID', label);
    assert.equal((await client.closedByHost()).code, 4401, label);
  }
});

test('a frame that is not JSON gets an error frame and the socket stays usable', async () => {
  const client = await ChatClient.connect(harness.socketUrl());
  try {
    await client.next('session');
    client.send('this is {not json');
    assert.equal((await client.next('error')).code, 'BOT_ERR_WS_FRAME_MALFORMED');
    client.send({ type: 'message', id: 'no-text' });
    assert.deepEqual(await client.next('error'), { type: 'error', code: 'BOT_ERR_WS_FRAME_REJECTED', message: 'text: Invalid input: expected string, received undefined', id: 'no-text' });
    client.say('hello');
    assert.equal((await client.next('reply')).message.text, 'Hello! What is your name?');
  } finally {
    await client.close();
  }
});

test('the first frame must be hello', async () => {
  const client = await ChatClient.connect(harness.socketUrl(), false);
  try {
    client.say('hello', 'early');
    assert.equal((await client.next('error')).code, 'BOT_ERR_WS_HELLO_REQUIRED');
    client.send({ type: 'hello' });
    await client.next('session');
  } finally {
    await client.close();
  }
});

test('a reply produced while the socket was closed is delivered on reconnect, after the last seq the client saw', async () => {
  const first = await ChatClient.connect(harness.socketUrl());
  const { token, sessionId } = await first.next('session');
  first.say('hello');
  await first.next('reply');
  first.say('my name is Grace');
  await first.next('ack');
  await first.close();
  await storedReplies(sessionId, 2);

  const second = await ChatClient.connect(harness.socketUrl(), { token, lastSeq: 1 });
  try {
    await second.next('session');
    assert.deepEqual(await second.next('reply'), { type: 'reply', seq: 2, message: { type: 'text', text: 'Hello Grace!' } });
  } finally {
    await second.close();
  }
});

test('a frame sent again with the same id is stored and answered once', async () => {
  const client = await ChatClient.connect(harness.socketUrl());
  try {
    const { sessionId } = await client.next('session');
    client.say('hello', 'same-id');
    assert.equal((await client.next('ack')).duplicate, false);
    client.say('hello', 'same-id');
    // The first message's reply may come before this ack on a busy machine: it stays queued.
    assert.deepEqual(await client.take('ack'), { type: 'ack', id: 'same-id', duplicate: true });
    await client.next('reply');
    const events = await harness.app.database.db('inbound_events').where({ source_id: harness.source.id, sender_foreign_id: sessionId });
    assert.equal(events.length, 1);
  } finally {
    await client.close();
  }
});

test('a reply stored by another host instance reaches the socket through NOTIFY', async () => {
  const db = harness.app.database.db;
  const otherInstance = new ReplyHub({ db, store: harness.app.services.webChat.store, logger: harness.app.services.logger });
  const client = await ChatClient.connect(harness.socketUrl());
  try {
    const { sessionId } = await client.next('session');
    const event = { kind: 'message' as const, channelName: 'web', rawEvent: {}, channelAttributes: {}, occurredAt: new Date().toISOString(), eventId: 'e', senderForeignId: sessionId };
    const source = { id: harness.source.id, ref: harness.source.ref, settings: {}, active: true };
    const frame = JSON.stringify({ type: 'text', text: 'from elsewhere' });
    assert.deepEqual(await otherInstance.deliver({ event, source, frame, idempotencyKey: `other:${sessionId}` }), { mid: `web:${sessionId}:1` });
    assert.deepEqual(await client.next('reply'), { type: 'reply', seq: 1, message: { type: 'text', text: 'from elsewhere' } });
    assert.deepEqual(await otherInstance.deliver({ event, source, frame, idempotencyKey: `other:${sessionId}` }), { mid: `web:${sessionId}:1` }, 'stored once per send key');
  } finally {
    await client.close();
  }
});

test('two sockets of one session (two tabs) both receive its replies', async () => {
  const first = await ChatClient.connect(harness.socketUrl());
  const { token } = await first.next('session');
  const second = await ChatClient.connect(harness.socketUrl(), { token });
  try {
    await second.next('session');
    first.say('hello');
    assert.equal((await first.next('reply')).seq, 1);
    assert.equal((await second.next('reply')).seq, 1);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

test('a client that claims a later seq than the session has (a reset database) still gets the new replies', async () => {
  const client = await ChatClient.connect(harness.socketUrl(), { lastSeq: 99 });
  try {
    assert.equal((await client.next('session')).lastSeq, 0);
    client.say('hello');
    assert.equal((await client.next('reply')).seq, 1);
  } finally {
    await client.close();
  }
});
