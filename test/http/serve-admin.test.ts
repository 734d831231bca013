import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import Koa from 'koa';
import { inject } from 'light-my-request';
import { serveAdmin } from '../../host/http/serve-admin.ts';

// A fake build: the middleware only reads files, so a tiny dist folder stands in for Vite's.
let dist: string;
before(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'bot-admin-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg/>');
  await writeFile(path.join(tmpdir(), 'outside-admin-dist.txt'), 'secret');
});
after(() => rm(dist, { recursive: true, force: true }));

function appServing(dir: string): Koa {
  const app = new Koa();
  app.use(serveAdmin({ dir }));
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: { code: 'BOT_ERR_HTTP_NOT_FOUND' } };
  });
  return app;
}

const get = (app: Koa, url: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') => inject(app.callback(), { method, url });

test('client-side routes get index.html, never cached', async () => {
  for (const url of ['/', '/workflows/memory', '/sources/1234?x=1', '/assets']) {
    const response = await get(appServing(dist), url);
    assert.equal(response.statusCode, 200, url);
    assert.match(String(response.headers['content-type']), /text\/html/);
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.match(response.body, /id="root"/);
  }
});

test('hashed assets are cached for a year; other files are revalidated', async () => {
  const asset = await get(appServing(dist), '/assets/index-abc123.js');
  assert.equal(asset.statusCode, 200);
  assert.match(String(asset.headers['content-type']), /javascript/);
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  const icon = await get(appServing(dist), '/favicon.svg');
  assert.equal(icon.headers['cache-control'], 'no-cache');
});

test("the host's own paths, missing assets, writes and escapes are not answered with the panel", async () => {
  for (const url of ['/api/nope', '/api', '/health/x', '/metrics', '/login', '/chat/abc', '/assets/gone.js', '/..%2foutside-admin-dist.txt']) {
    const response = await get(appServing(dist), url);
    if (url.startsWith('/..')) {
      assert.doesNotMatch(response.body, /secret/, url);
      continue;
    }
    assert.equal(response.statusCode, 404, url);
    assert.match(response.body, /BOT_ERR_HTTP_NOT_FOUND/, url);
  }
  assert.equal((await get(appServing(dist), '/workflows', 'POST')).statusCode, 404);
});

test('without a build, the panel answers a page saying to run npm run build', async () => {
  const response = await get(appServing(path.join(dist, 'missing')), '/workflows');
  assert.equal(response.statusCode, 503);
  assert.match(response.body, /npm run build/);
  assert.equal(response.headers['cache-control'], 'no-cache');
});
