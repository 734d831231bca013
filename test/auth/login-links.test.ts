import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('a login code is exchanged once for a working admin token', async () => {
  const code = await t.services.loginLinks.create({ sub: 'admin', role: 'admin' }, 60_000);
  const login = await t.request('POST', '/api/auth/login', { body: { code } });
  assert.equal(login.status, 200);
  assert.equal(login.body.role, 'admin');
  const list = await t.request('GET', '/api/memory-definitions', { authorization: `Bearer ${login.body.token}` });
  assert.equal(list.status, 200);

  const again = await t.request('POST', '/api/auth/login', { body: { code } });
  assert.equal(again.status, 401);
  assert.equal(again.body.error.code, 'BOT_ERR_AUTH_LOGIN_LINK_INVALID');
});

test('an expired login code is refused', async () => {
  const code = await t.services.loginLinks.create({ sub: 'admin', role: 'admin' }, 60_000);
  t.clock.advance(60_001);
  const login = await t.request('POST', '/api/auth/login', { body: { code } });
  assert.equal(login.status, 401);
});

test('an unknown login code is refused', async () => {
  const login = await t.request('POST', '/api/auth/login', { body: { code: 'made-up' } });
  assert.equal(login.status, 401);
});

test('the login page is served without caching and reads the code from the fragment', async () => {
  const page = await t.request('GET', '/login');
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.equal(page.headers['cache-control'], 'no-store');
  assert.match(page.text, /location\.hash/);
  // It hands the token to the admin panel (which reads this key) and opens it.
  assert.match(page.text, /localStorage\.setItem\('bot\.token'/);
  assert.match(page.text, /location\.replace\('\/'\)/);
});
