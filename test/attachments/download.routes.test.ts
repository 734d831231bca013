import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import jwt from 'jsonwebtoken';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { DOWNLOAD_TOKEN_AUDIENCE } from '../../host/attachments/download-token.ts';
import { createTestApp, TEST_AUTH_SECRET, TEST_DOWNLOAD_SECRET, TEST_PUBLIC_URL, type TestApp, type TestResponse } from '../support/test-app.ts';

const TTL_MS = 10 * 60_000;
const BYTES = Buffer.from('%PDF-1.7 not really a pdf \u0000\u0001\u00ff', 'latin1');

let t: TestApp;
let a: { id: string; ref: string };
let b: { id: string; ref: string };

before(async () => {
  t = await createTestApp({ attachments: { tokenTtlMs: TTL_MS } });
  // No channel is needed to serve downloads: rows straight into the table.
  const insert = async (name: string) =>
    (await t.database.db('sources').insert({ ref: `source-${name}-ref-0123456789ab`, name, channel: 'files', settings: {} }).returning(['id', 'ref']))[0]!;
  a = await insert('a');
  b = await insert('b');
  for (const source of [a, b]) {
    await t.services.attachments.store.save(source.id, 'invoice.pdf', BYTES);
    await t.services.attachments.store.save(source.id, 'other.txt', 'other file');
  }
});
after(() => t.close());

/** The path and query of a link, as the test app takes them. */
const pathOf = (url: string) => url.slice(TEST_PUBLIC_URL.length);
const linkFor = (sourceId: string, name: string) => t.services.attachments.publicUrl('files', sourceId, name);
const get = (url: string) => t.request('GET', url);
const sign = (claims: object, secret = TEST_DOWNLOAD_SECRET, options: jwt.SignOptions = { audience: DOWNLOAD_TOKEN_AUDIENCE }) =>
  jwt.sign({ exp: Math.floor(t.clock.now().getTime() / 1000) + 600, ...claims }, secret, { algorithm: 'HS256', ...options });
const withToken = (source: { ref: string }, name: string, token: string) =>
  `/api/webhook/${source.ref}/download/${encodeURIComponent(name)}?t=${encodeURIComponent(token)}`;

function assertRefused(response: TestResponse): void {
  assert.equal(response.status, 403);
  assert.deepEqual(response.body, { error: { code: 'BOT_ERR_ATTACHMENT_TOKEN_INVALID', message: 'The download link is not valid' } });
  assert.equal(response.headers['cache-control'], 'private, no-store');
  assert.equal(response.headers['content-disposition'], undefined);
}

describe('attachment downloads', () => {
  test('a link the host built answers the file, as a download that is never cached or sniffed', async () => {
    const url = await linkFor(a.id, 'invoice.pdf');
    assert.match(url, new RegExp(`^${TEST_PUBLIC_URL}/api/webhook/${a.ref}/download/invoice\\.pdf\\?t=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    const response = await get(pathOf(url));
    assert.equal(response.status, 200);
    assert.deepEqual(Buffer.from(response.text, 'latin1').length, BYTES.length);
    assert.equal(response.headers['content-type'], 'application/octet-stream');
    assert.equal(response.headers['content-length'], String(BYTES.length));
    assert.equal(response.headers['content-disposition'], 'attachment; filename="invoice.pdf"');
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['cache-control'], 'private, no-store');
  });

  test('the bytes come back exactly', async () => {
    const { inject } = await import('light-my-request');
    const url = pathOf(await linkFor(a.id, 'invoice.pdf'));
    const response = await inject(t.app.callback(), { method: 'GET', url });
    assert.deepEqual(response.rawPayload, BYTES);
  });

  test('a link works until its lifetime ends, then answers 403', async () => {
    const url = pathOf(await linkFor(a.id, 'invoice.pdf'));
    t.clock.advance(TTL_MS - 1_000);
    assert.equal((await get(url)).status, 200);
    t.clock.advance(1_000);
    assertRefused(await get(url));
  });

  test("a token of another source does not open this source's file of the same name", async () => {
    const token = new URL(await linkFor(a.id, 'invoice.pdf')).searchParams.get('t')!;
    assertRefused(await get(withToken(b, 'invoice.pdf', token)));
  });

  test('a token of another file of the same source does not open this one', async () => {
    const token = new URL(await linkFor(a.id, 'invoice.pdf')).searchParams.get('t')!;
    assertRefused(await get(withToken(a, 'other.txt', token)));
  });

  test('a tampered signature or payload is refused', async () => {
    const token = new URL(await linkFor(a.id, 'invoice.pdf')).searchParams.get('t')!;
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`;
    assertRefused(await get(withToken(a, 'invoice.pdf', `${header}.${payload}.${flipped}`)));
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, name: 'other.txt' })).toString('base64url');
    assertRefused(await get(withToken(a, 'other.txt', `${header}.${forged}.${signature}`)));
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    assertRefused(await get(withToken(a, 'invoice.pdf', unsigned)));
  });

  test('a token signed with the admin secret, or an admin token, is refused', async () => {
    assertRefused(await get(withToken(a, 'invoice.pdf', sign({ src: a.id, name: 'invoice.pdf' }, TEST_AUTH_SECRET))));
    assertRefused(await get(withToken(a, 'invoice.pdf', signAdminToken({ sub: 'alice', role: 'admin' }, TEST_AUTH_SECRET, { ttl: '1h' }))));
    assertRefused(await get(withToken(a, 'invoice.pdf', t.tokenFor('admin'))));
  });

  test('a token with the right key but not meant for downloads is refused', async () => {
    assertRefused(await get(withToken(a, 'invoice.pdf', sign({ src: a.id, name: 'invoice.pdf' }, TEST_DOWNLOAD_SECRET, {}))));
    assertRefused(await get(withToken(a, 'invoice.pdf', sign({ src: a.id, name: 'invoice.pdf' }, TEST_DOWNLOAD_SECRET, { audience: 'something-else' }))));
    assertRefused(await get(withToken(a, 'invoice.pdf', signAdminToken({ sub: 'alice', role: 'admin' }, TEST_DOWNLOAD_SECRET, { ttl: '1h' }))));
    // Correctly signed and meant for downloads: the control that the cases above fail for the reason claimed.
    assert.equal((await get(withToken(a, 'invoice.pdf', sign({ src: a.id, name: 'invoice.pdf' })))).status, 200);
  });

  test('a missing, empty or repeated token is refused', async () => {
    assertRefused(await get(`/api/webhook/${a.ref}/download/invoice.pdf`));
    assertRefused(await get(`/api/webhook/${a.ref}/download/invoice.pdf?t=`));
    const token = new URL(await linkFor(a.id, 'invoice.pdf')).searchParams.get('t')!;
    assertRefused(await get(`/api/webhook/${a.ref}/download/invoice.pdf?t=${token}&t=${token}`));
  });

  test('an unknown source answers 404 whatever the token', async () => {
    const token = new URL(await linkFor(a.id, 'invoice.pdf')).searchParams.get('t')!;
    const response = await get(withToken({ ref: 'no-such-ref' }, 'invoice.pdf', token));
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'BOT_ERR_WEBHOOK_SOURCE_UNKNOWN');
  });

  test('a valid link to a file not stored answers 404; without a valid token it answers 403', async () => {
    const response = await get(pathOf(await linkFor(a.id, 'not-there.pdf')));
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { error: { code: 'BOT_ERR_ATTACHMENT_NOT_FOUND', message: 'No such attachment' } });
    // File names cannot be probed: a wrong token never reaches the file system check.
    assertRefused(await get(`/api/webhook/${a.ref}/download/not-there.pdf?t=nope`));
  });

  test('names outside the source folder are never served, even with a token forged for them', async () => {
    await writeFile(path.join(t.attachmentsDir, 'secret.txt'), 'top secret');
    await writeFile(path.join(t.attachmentsDir, a.id, '.upload-leftover'), 'partial');
    const tokens = t.services.attachments.tokens;
    for (const name of ['../secret.txt', `../${a.id}/invoice.pdf`, '..', '.upload-leftover', `../${b.id}/invoice.pdf`, 'a/../../secret.txt', '..\\secret.txt', 'invoice.pdf\u0000']) {
      const url = withToken(a, name, tokens.sign({ sourceId: a.id, name }));
      const response = await get(url);
      // `..` alone is a dot segment: the URL resolves to another route before the router sees it.
      if (name === '..') assert.notEqual(response.status, 200, name);
      else assert.equal(response.status, 404, name);
      assert.doesNotMatch(response.text, /top secret|partial|PDF/, name);
      const raw = `/api/webhook/${a.ref}/download/${name.replaceAll('/', '%2F').replaceAll('.', '%2E')}?t=${tokens.sign({ sourceId: a.id, name })}`;
      assert.notEqual((await get(raw)).status, 200, name);
    }
    // Unencoded dots and slashes are resolved or split before routing: never a file outside.
    for (const url of [`/api/webhook/${a.ref}/download/../../secret.txt`, `/api/webhook/${a.ref}/download/%2e%2e/%2e%2e/secret.txt`]) {
      const response = await get(url);
      assert.notEqual(response.status, 200, url);
      assert.doesNotMatch(response.text, /top secret/, url);
    }
  });

  test('the link builder refuses bad names, unknown sources and sources of another channel', async () => {
    await assert.rejects(linkFor(a.id, '../secret.txt'), { code: 'BOT_ERR_ATTACHMENT_NAME_INVALID' });
    await assert.rejects(linkFor('8e0b7d1e-6a55-4a8c-9a6f-2d8f2f7c1b11', 'invoice.pdf'), { code: 'BOT_ERR_SOURCE_NOT_FOUND' });
    await assert.rejects(linkFor('not-a-uuid', 'invoice.pdf'), { code: 'BOT_ERR_SOURCE_NOT_FOUND' });
    await assert.rejects(t.services.attachments.publicUrl('other_channel', a.id, 'invoice.pdf'), { code: 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN', status: 403 });
    await assert.rejects(t.services.attachments.publicUrl(undefined, a.id, 'invoice.pdf'), { code: 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN' });
  });

  test('a name with spaces, quotes and non-ASCII letters round-trips and is safely quoted', async () => {
    const name = 'Rechnung "März" 2026; final.pdf';
    await t.services.attachments.store.save(a.id, name, 'ä');
    const url = await linkFor(a.id, name);
    assert.match(url, /\/download\/Rechnung%20%22M%C3%A4rz%22%202026%3B%20final\.pdf\?t=/);
    const response = await get(pathOf(url));
    assert.equal(response.status, 200);
    assert.equal(response.text, 'ä');
    assert.equal(response.headers['content-disposition'], `attachment; filename="Rechnung \\"M_rz\\" 2026; final.pdf"; filename*=UTF-8''Rechnung%20%22M%C3%A4rz%22%202026%3B%20final.pdf`);
  });

  test('the download route and the webhook routes do not shadow each other', async () => {
    // Two segments after the ref are the workflow route; four are the download route.
    const workflow = await t.request('POST', `/api/webhook/${a.ref}/download`, { body: '{}' });
    assert.equal(workflow.body.error.code, 'BOT_ERR_WEBHOOK_WORKFLOW_UNKNOWN');
    assert.equal((await t.request('POST', `/api/webhook/${a.ref}/download/invoice.pdf`, { body: '{}' })).status, 405);
    assert.equal((await get(pathOf(await linkFor(a.id, 'invoice.pdf')))).status, 200);
  });
});
