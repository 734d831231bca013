/**
 * The channel an event comes from is the host's to say: the hostile channel's decode names its
 * events' channel `web` (the built-in live chat), and the inbox stores, and workflows read as
 * `$input.channel`, the channel of the source the webhook came to.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toRunInput } from '../../host/dispatch/inbound-event-processor.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { HOSTILE_ROOT } from './hostile-runner.ts';

const SANDBOX = { callTimeoutMs: 15_000, startTimeoutMs: 30_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 8, idleTimeoutMs: 60_000 };

let app: TestApp;
before(async () => {
  app = await createTestApp({ channels: { appRoot: HOSTILE_ROOT, sandbox: SANDBOX } });
  await app.services.channels.load();
});
after(() => app.close());

test("an event whose plugin claims the channel 'web' is stored, and reaches the workflow, as the source's channel", async () => {
  const created = await app.request('POST', '/api/sources', { as: 'admin', body: { name: 'Hostile', channel: 'hostile' } });
  assert.equal(created.status, 201, created.text);
  const { id, ref } = created.body as { id: string; ref: string };
  const response = await app.request('POST', `/api/webhook/${ref}`, { body: JSON.stringify({ attack: 'echo', claimChannel: 'web', eventId: 'claims-web' }), headers: { 'content-type': 'application/json' } });
  assert.equal(response.status, 200, response.text);
  const row = await app.database.db('inbound_events').where({ source_id: id, event_id: 'claims-web' }).first();
  assert.ok(row, 'the event was stored');
  assert.equal(row.event.channelName, 'hostile');
  assert.equal(toRunInput(row.event).channel, 'hostile');
});
