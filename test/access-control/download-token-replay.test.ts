import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, type TestResponse } from '../support/test-app.ts';

// test/attachments/download.routes.test.ts covers tampering, expiry, alg none, the admin secret,
// and a token moved to another source (same name) or another file (same source). Here: the
// replays it leaves out, where a token is moved across both, or outlives its source.

let t: TestApp;
let counter = 0;

/** A source row (no channel needed to serve downloads) holding the given files. */
async function sourceWith(...names: string[]): Promise<{ id: string; ref: string }> {
  counter += 1;
  const [source] = await t.database.db('sources')
    .insert({ ref: `replay-source-${counter}-0123456789ab`, name: `Replay ${counter}`, channel: 'files', settings: {} })
    .returning(['id', 'ref']);
  for (const name of names) await t.services.attachments.store.save(source.id, name, `${name} of source ${counter}`);
  return source;
}

const tokenFor = async (sourceId: string, name: string) =>
  new URL(await t.services.attachments.publicUrl('files', sourceId, name)).searchParams.get('t')!;
const download = (source: { ref: string }, name: string, token: string) =>
  t.request('GET', `/api/webhook/${source.ref}/download/${encodeURIComponent(name)}?t=${encodeURIComponent(token)}`);

function assertRefused(response: TestResponse, what: string): void {
  assert.equal(response.status, 403, what);
  assert.equal(response.body.error.code, 'BOT_ERR_ATTACHMENT_TOKEN_INVALID', what);
}

before(async () => (t = await createTestApp()));
after(() => t.close());

describe('a download token replayed anywhere but its own file', () => {
  test('does not open another file of another source', async () => {
    const [a, b] = [await sourceWith('invoice.pdf'), await sourceWith('receipt.pdf')];
    const token = await tokenFor(a.id, 'invoice.pdf');
    assert.equal((await download(a, 'invoice.pdf', token)).status, 200, 'the control: it opens its own file');
    assertRefused(await download(b, 'receipt.pdf', token), 'another source, another file');
  });

  test('does not open a name spelled differently, even one stored', async () => {
    const a = await sourceWith('invoice.pdf', 'INVOICE.PDF', 'invoice.pdf.bak', 'invoice');
    const token = await tokenFor(a.id, 'invoice.pdf');
    for (const name of ['INVOICE.PDF', 'invoice.pdf.bak', 'invoice', 'invoice.pdf ']) assertRefused(await download(a, name, token), name);
  });

  test('does not outlive its source: a new source with the same files does not take it', async () => {
    const old = await sourceWith('invoice.pdf');
    const token = await tokenFor(old.id, 'invoice.pdf');
    await t.database.db('sources').where({ id: old.id }).delete();
    assert.equal((await download(old, 'invoice.pdf', token)).status, 404, 'the old webhook reference is gone');
    const successor = await sourceWith('invoice.pdf');
    assertRefused(await download(successor, 'invoice.pdf', token), 'the successor source');
  });

  test('a link opens its own file as often as asked (whoever holds it may), never another', async () => {
    const a = await sourceWith('invoice.pdf', 'other.txt');
    const url = (await t.services.attachments.publicUrl('files', a.id, 'invoice.pdf')).slice(TEST_PUBLIC_URL.length);
    for (let attempt = 0; attempt < 3; attempt += 1) assert.equal((await t.request('GET', url)).status, 200);
    assertRefused(await t.request('GET', url.replace('/invoice.pdf?', '/other.txt?')), 'the same link pointed at another file');
  });
});
