import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { SubscriberStore } from '../../host/conversations/subscriber-store.ts';
import { ConversationEntry } from '../../host/conversations/conversation-entry.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let sourceId: string;
before(async () => {
  t = await createTestApp();
  [{ id: sourceId }] = await t.database.db('sources').insert({ ref: 'ref-subscribers', name: 'Platform', channel: 'sample', settings: '{}' }).returning('id');
});
after(() => t.close());

const describe = (firstName: string) => async () => ({
  foreignId: 'ignored', firstName, lastName: 'Lovelace', source: 'ignored', channel: { name: 'sample' }, language: 'en', locale: 'en_GB',
  timezone: 0, gender: null, country: null, labels: [], assignedTo: null, assignedAt: null, avatar: null,
  lastvisit: new Date(0).toISOString(), retainedFrom: new Date(0).toISOString(),
});

test('find-or-create makes one subscriber per source and platform id, asking the channel only the first time', async () => {
  const store = new SubscriberStore(t.database.db);
  let asked = 0;
  const counting = async () => (asked++, describe('Ada')());
  const [first, second] = await Promise.all([store.findOrCreate(sourceId, 'u-ada', counting), store.findOrCreate(sourceId, 'u-ada', counting)]);
  assert.equal(first.id, second.id);
  const third = await store.findOrCreate(sourceId, 'u-ada', counting);
  assert.equal(third.id, first.id);
  assert.equal(third.created, false);
  assert.ok(asked <= 2, 'asked only while no subscriber existed');
  assert.equal((await t.database.db('subscribers').where({ foreign_id: 'u-ada' })).length, 1);
});

test('subscribers are listed, searched and read; deleting one erases their memory, threads and history', async () => {
  const store = new SubscriberStore(t.database.db);
  const grace = await store.findOrCreate(sourceId, 'u-grace', describe('Grace'));
  const entry = new ConversationEntry(t.database.db, { now: () => new Date(), inactivityMs: 60_000 });
  const { threadId } = (await entry.enter({ sourceId, senderForeignId: grace.foreignId, inboundEventId: randomUUID(), message: undefined }))!;
  await t.database.db('conversation_messages').insert({ thread_id: threadId, direction: 'out', text: 'hi', message: '{}' });
  const [definition] = await t.database.db('memory_definitions').insert({ name: 'Notes', slug: 'notes', scope: 'global', schema: '{}' }).returning('id');
  await t.database.db('memory_records').insert({ definition_id: definition.id, owner_id: grace.id, scope_key: '', value: '{}' });
  const [inbound] = await t.database.db('inbound_events')
    .insert({ source_id: sourceId, event_id: 'grace-1', sender_foreign_id: 'u-grace', event: JSON.stringify({ message: { type: 'text', data: { text: 'I live at 1 Main St' } } }) })
    .returning('id');
  const [run] = await t.database.db('workflow_runs')
    .insert({ workflow_id: '00000000-0000-4000-8000-000000000000', workflow_version: 1, mode: 'live', owner_id: grace.id, status: 'succeeded', input: JSON.stringify({ text: 'I live at 1 Main St' }), inbound_event_id: inbound.id })
    .returning('id');
  await t.database.db('outbound_messages').insert({ send_key: 'grace-1:0:0', source_id: sourceId, thread_id: threadId, envelope: '{}', status: 'sent' });

  const listed = await t.request('GET', '/api/subscribers?q=grac', { as: 'viewer' });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.items.map((item: { firstName: string; lastName: string }) => `${item.firstName} ${item.lastName}`), ['Grace Lovelace']);
  const read = await t.request('GET', `/api/subscribers/${grace.id}`, { as: 'viewer' });
  assert.equal(read.body.foreignId, 'u-grace');
  assert.equal(read.body.data.locale, 'en_GB');

  assert.equal((await t.request('DELETE', `/api/subscribers/${grace.id}`, { as: 'editor' })).status, 403);
  assert.equal((await t.request('DELETE', `/api/subscribers/${grace.id}`, { as: 'admin' })).status, 204);
  assert.equal((await t.request('GET', `/api/subscribers/${grace.id}`, { as: 'viewer' })).status, 404);
  assert.deepEqual(await t.database.db('memory_records').where({ owner_id: grace.id }), []);
  assert.deepEqual(await t.database.db('threads').where({ id: threadId }), []);
  assert.deepEqual(await t.database.db('conversation_messages').where({ thread_id: threadId }), []);
  assert.deepEqual(await t.database.db('workflow_runs').where({ id: run.id }), []);
  assert.deepEqual(await t.database.db('outbound_messages').where({ thread_id: threadId }), []);
  const kept = await t.database.db('inbound_events').where({ id: inbound.id }).first();
  assert.deepEqual(kept.event, { erased: true }, 'the event id stays for deduplication, its content goes');
});
