import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

let t: TestApp;
let web: { ref: string };
let sample: { ref: string };
let inactive: { ref: string };
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
  const create = async (body: Record<string, unknown>) => (await t.request('POST', '/api/sources', { as: 'admin', body })).body;
  web = await create({ name: 'Shop chat', channel: 'web', settings: { title: 'Shop <help> & "support"', welcome_text: '</script><b>hi</b>' } });
  sample = await create({ name: 'Webhook', channel: 'sample', settings: {} });
  inactive = await create({ name: 'Closed chat', channel: 'web', settings: {}, active: false });
});
after(() => t.close());

test('GET /chat/:sourceRef serves the chat page of a web source, its settings escaped', async () => {
  const response = await t.request('GET', `/chat/${web.ref}`);
  assert.equal(response.status, 200);
  assert.match(String(response.headers['content-type']), /text\/html/);
  assert.match(response.text, /<title>Shop &#60;help&#62; &#38; &#34;support&#34;<\/title>/);
  assert.ok(!response.text.includes('</script><b>'), 'the welcome text cannot close the script');
  assert.ok(response.text.includes(`"sourceRef":"${web.ref}"`));
  const csp = String(response.headers['content-security-policy']);
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce && response.text.includes(`<script nonce="${nonce}">`), 'the inline script carries the nonce');
  assert.match(csp, /default-src 'none'/);
  assert.equal(response.headers['cache-control'], 'no-store');
});

test('GET /chat/:sourceRef is 404 for an unknown source, an inactive one, or a source of another channel', async () => {
  for (const ref of ['no-such-ref', inactive.ref, sample.ref]) {
    assert.equal((await t.request('GET', `/chat/${ref}`)).status, 404, ref);
  }
});

test('the built-in web channel is discovered in @bot-ai/api and registered as a WebSocket channel', async () => {
  const response = await t.request('GET', '/api/channel', { as: 'viewer' });
  const web = response.body.items.find((channel: { name: string }) => channel.name === 'web');
  assert.ok(web, JSON.stringify(response.body.items.map((channel: { name: string }) => channel.name)));
  assert.equal(web.origin, 'builtin');
  assert.deepEqual(web.package, { name: '@bot-ai/api', version: '3.0.0' });
  assert.equal(web.capabilities.typingIndicator, true);
  assert.deepEqual(Object.keys(web.settingsSchema.properties).sort(), ['title', 'welcome_text']);
  assert.equal(t.services.channels.running('web')?.description.kind, 'websocket');
});
