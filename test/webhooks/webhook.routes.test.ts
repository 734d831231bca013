import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };
const SECRET = 'webhook-secret-for-tests';

let t: TestApp;
let source: { id: string; ref: string };
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
  const created = await t.request('POST', '/api/sources', {
    as: 'admin',
    body: { name: 'Sample platform', channel: 'sample', settings: { webhook_secret: SECRET, verify_token: 'let-me-in' } },
  });
  source = created.body;
});
after(() => t.close());

const sign = (raw: string) => createHmac('sha256', SECRET).update(raw).digest('hex');
const event = (id: string, text: string) => ({ id, timestamp: 1763800000000, sender: { id: 'user-1', first_name: 'Ada' }, recipient: { id: 'bot-1' }, message: { text } });
const post = (raw: string, headers: Record<string, string> = {}, path = `/api/webhook/${source.ref}`) =>
  t.request('POST', path, { body: raw, headers: { 'content-type': 'application/json', 'x-bot-signature': sign(raw), ...headers } });
const storedEventIds = async () =>
  (await t.database.db('inbound_events').where({ source_id: source.id }).orderBy('event_id').select('event_id')).map((row) => row.event_id);

describe('webhooks of the sample channel', () => {
  test('GET answers the handshake through the channel: 200 with the challenge, 403 with a wrong token', async () => {
    const ok = await t.request('GET', `/api/webhook/${source.ref}?verify_token=let-me-in&challenge=abc123`);
    assert.equal(ok.status, 200);
    assert.equal(ok.text, 'abc123');
    assert.equal((await t.request('GET', `/api/webhook/${source.ref}?verify_token=nope&challenge=abc123`)).status, 403);
  });

  test('a signed POST commits each decoded event to the inbox before answering 200', async () => {
    // Odd spacing on purpose: the signature only matches if the plugin gets the exact bytes.
    const raw = `{ "events" : [ ${JSON.stringify(event('evt-a', 'hello'))},  ${JSON.stringify(event('evt-b', 'again'))} ] }`;
    const response = await post(raw);
    assert.equal(response.status, 200);
    assert.deepEqual(await storedEventIds(), ['evt-a', 'evt-b']);
    const stored = await t.database.db('inbound_events').where({ event_id: 'evt-a' }).first();
    assert.equal(stored.status, 'queued');
    assert.equal(stored.sender_foreign_id, 'user-1');
    assert.deepEqual(stored.event.message, { type: 'text', data: { text: 'hello' } });
  });

  test('a message holding a NUL or a broken surrogate is stored with U+FFFD, and its batch with it', async () => {
    const raw = JSON.stringify({ events: [event('evt-nul', 'before\u0000after'), event('evt-fine', 'fine'), event('evt-surrogate', 'x\uD800y')] });
    assert.equal((await post(raw)).status, 200);
    const rows = await t.database.db('inbound_events').whereIn('event_id', ['evt-nul', 'evt-fine', 'evt-surrogate']).orderBy('event_id');
    assert.deepEqual(rows.map((row) => row.event.message.data.text), ['fine', 'before\uFFFDafter', 'x\uFFFDy']);
  });

  test('a retried delivery of the same event is answered 200 and stored once', async () => {
    const raw = JSON.stringify({ events: [event('evt-retry', 'once')] });
    assert.equal((await post(raw)).status, 200);
    assert.equal((await post(raw)).status, 200);
    const rows = await t.database.db('inbound_events').where({ event_id: 'evt-retry' });
    assert.equal(rows.length, 1);
  });

  test('a wrong signature answers 401 and reveals nothing of the expected one', async () => {
    const raw = JSON.stringify({ events: [event('evt-forged', 'x')] });
    const response = await post(raw, { 'x-bot-signature': 'deadbeef' });
    assert.equal(response.status, 401);
    assert.deepEqual(Object.keys(response.body.error).sort(), ['code', 'message']);
    assert.equal(response.body.error.code, 'BOT_ERR_WEBHOOK_SIGNATURE_REJECTED');
    assert.doesNotMatch(response.text, new RegExp(sign(raw)));
    assert.ok(!(await storedEventIds()).includes('evt-forged'));
  });

  test('a signed body the channel cannot decode answers 400', async () => {
    const response = await post(JSON.stringify({ events: 'not a list' }));
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'BOT_ERR_WEBHOOK_PAYLOAD_REJECTED');
  });

  test('an unknown source answers 404, a workflow id that names no workflow 404', async () => {
    assert.equal((await post('{}', {}, '/api/webhook/no-such-ref')).status, 404);
    assert.equal((await post('{}', {}, `/api/webhook/${source.ref}/some-workflow`)).body.error.code, 'BOT_ERR_WEBHOOK_WORKFLOW_UNKNOWN');
  });

  test('a body over the limit answers 413', async () => {
    const raw = JSON.stringify({ events: [], padding: 'x'.repeat(1024 * 1024) });
    assert.equal((await post(raw)).status, 413);
  });

  test("a source whose channel is not registered answers 503, so the platform retries", async () => {
    const [orphan] = await t.database.db('sources')
      .insert({ ref: 'orphan-ref-0123456789abcd', name: 'Orphan', channel: 'uninstalled', settings: {} })
      .returning('*');
    const response = await post('{}', {}, `/api/webhook/${orphan.ref}`);
    assert.equal(response.status, 503);
    assert.equal(response.body.error.code, 'BOT_ERR_WEBHOOK_CHANNEL_UNAVAILABLE');
  });
});

describe('webhooks after an admin changes the source', () => {
  let sources = 0;
  const createSource = async (secret: string) =>
    (await t.request('POST', '/api/sources', { as: 'admin', body: { name: `Changing ${(sources += 1)}`, channel: 'sample', settings: { webhook_secret: secret } } })).body as { id: string; ref: string };
  const postSigned = (ref: string, secret: string, eventId: string) => {
    const raw = JSON.stringify({ events: [event(eventId, 'hello')] });
    const signature = createHmac('sha256', secret).update(raw).digest('hex');
    return t.request('POST', `/api/webhook/${ref}`, { body: raw, headers: { 'content-type': 'application/json', 'x-bot-signature': signature } });
  };
  const patch = (id: string, body: object) => t.request('PATCH', `/api/sources/${id}`, { as: 'admin', body });

  test('a new webhook secret applies to the very next webhook', async () => {
    const changing = await createSource('old-secret');
    assert.equal((await postSigned(changing.ref, 'old-secret', 'rotate-1')).status, 200, 'the source is now held in memory');
    assert.equal((await patch(changing.id, { settings: { webhook_secret: 'new-secret' } })).status, 200);
    assert.equal((await postSigned(changing.ref, 'old-secret', 'rotate-2')).status, 401);
    assert.equal((await postSigned(changing.ref, 'new-secret', 'rotate-3')).status, 200);
  });

  test('a deactivated source is seen inactive by the very next webhook, which is still stored', async () => {
    const changing = await createSource('secret');
    assert.equal((await postSigned(changing.ref, 'secret', 'deactivate-1')).status, 200);
    assert.equal((await patch(changing.id, { active: false })).status, 200);
    assert.equal((await t.services.sourceCache.get(changing.ref))?.active, false);
    assert.equal((await postSigned(changing.ref, 'secret', 'deactivate-2')).status, 200, 'an inactive source accepts webhooks but runs no workflow');
    const stored = await t.database.db('inbound_events').where({ source_id: changing.id }).orderBy('event_id').pluck('event_id');
    assert.deepEqual(stored, ['deactivate-1', 'deactivate-2']);
  });

  test('a deleted source answers 404 to the very next webhook', async () => {
    const changing = await createSource('secret');
    assert.equal((await postSigned(changing.ref, 'secret', 'deleted-1')).status, 200);
    assert.equal((await t.request('DELETE', `/api/sources/${changing.id}`, { as: 'admin' })).status, 204);
    const response = await postSigned(changing.ref, 'secret', 'deleted-2');
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'BOT_ERR_WEBHOOK_SOURCE_UNKNOWN');
  });

  test('a source changed behind the admin API (in SQL) is read again once its time in memory is up', async () => {
    const changing = await createSource('secret');
    assert.equal((await postSigned(changing.ref, 'secret', 'by-hand-1')).status, 200);
    await t.database.db('sources').where({ id: changing.id }).update({ settings: JSON.stringify({ webhook_secret: 'set-by-hand' }) });
    assert.equal((await postSigned(changing.ref, 'set-by-hand', 'by-hand-2')).status, 401, 'the copy in memory is still used');
    t.clock.advance(60_000);
    assert.equal((await postSigned(changing.ref, 'set-by-hand', 'by-hand-3')).status, 200);
  });
});

test("each webhook's answer is timed by channel and outcome, against the shortest platform deadline (3 s)", async () => {
  const count = async (outcome: string) => {
    const text = (await t.request('GET', '/metrics')).text;
    const line = text.split('\n').find((candidate) => candidate.startsWith(`bot_webhook_ack_seconds_count{channel="sample",outcome="${outcome}"} `));
    return line === undefined ? 0 : Number(line.split(' ')[1]);
  };
  const [accepted, rejected, invalid] = [await count('accepted'), await count('rejected'), await count('invalid')];
  assert.equal((await post(JSON.stringify({ events: [event('evt-timed', 'hi')] }))).status, 200);
  assert.equal((await post('{"events":[]}', { 'x-bot-signature': 'f'.repeat(64) })).status, 401);
  assert.equal((await post('{"events":"no"}')).status, 400);
  assert.deepEqual([await count('accepted'), await count('rejected'), await count('invalid')], [accepted + 1, rejected + 1, invalid + 1]);
  assert.match((await t.request('GET', '/metrics')).text, /bot_webhook_ack_seconds_bucket\{le="3",channel="sample",outcome="accepted"\} [1-9]/);
});
