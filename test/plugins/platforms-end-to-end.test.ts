/**
 * Each real-platform package end to end, as an operator runs it: `npm start`, a source of the
 * channel pointed at a fake of the platform's API (its x-egress setting), the greeting workflow
 * as its default. A delivery recorded from the platform's documentation, signed as the platform
 * signs it, is answered once at the fake platform; the platform's retry of it is stored once
 * and gets no second reply.
 */
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { checkSource, FakePlatform, fixtureToRequest, loadChannelFixtures, signRequest, type ChannelFixtures } from '@bot-ai/api/check';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import { startHostProcess, type HostProcess } from '../support/host-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const PLATFORMS = ['telegram', 'whatsapp', 'messenger', 'slack'];
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AUTH_SECRET = 'platforms-e2e-auth-secret-0123456789abcdef';
/** The greeting workflow's first answer to someone it does not know yet. */
const GREETING = 'Hello! What is your name?';
const DEADLINE_MS = 60_000;

let database: TestDatabase;
let dataDir: string;
let host: HostProcess;
let greetingWorkflowId: string;
const token = signAdminToken({ sub: 'platforms-e2e', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });

before(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'bot-platforms-e2e-'));
  await chmod(dataDir, 0o755);
  host = await startHostProcess({
    DATABASE_URL: database.url,
    BOT_DATA_DIR: dataDir,
    BOT_AUTH_SECRET: AUTH_SECRET,
    BOT_DOWNLOAD_SECRET: 'platforms-e2e-download-secret-0123456789abcd',
  });
  const profile = (await api('POST', '/api/memory-definitions', {
    name: 'Profile',
    slug: 'profile',
    scope: 'global',
    schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
  })) as { id: string };
  const yaml = bindDefinitionPlaceholders(await readFile(path.join(REPO_ROOT, 'workflows/examples/greeting.yaml'), 'utf8'), new Map([['profile', profile.id]]));
  greetingWorkflowId = ((await api('POST', '/api/workflows', { name: 'Greeting', yaml })) as { id: string }).id;
});

after(async () => {
  await host?.stop();
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function api(method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${host.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${url} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Posts the delivery signed now, as the platform would; resolves with the status. */
async function deliver(fixtures: ChannelFixtures, file: string, sourceRef: string, settings: Record<string, unknown>): Promise<number> {
  const { manifest, deliveries } = fixtures;
  const request = signRequest(fixtureToRequest(deliveries.get(file)!.request), manifest.signature, String(settings[manifest.signature.setting]), Date.now() / 1000);
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await fetch(`${host.url}/api/webhook/${sourceRef}`, { method: 'POST', headers, body: Buffer.from(request.rawBody) });
  await response.arrayBuffer();
  return response.status;
}

async function waitFor(what: string, found: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await found())) {
    if (Date.now() > deadline) assert.fail(`${what} within ${DEADLINE_MS} ms; host output:\n${host.output().slice(-4_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const platform of PLATFORMS) {
  test(`bot-channel-${platform}: a signed delivery is answered once by the greeting workflow, and its retry gets no second reply`, async (t) => {
    const fixtures = await loadChannelFixtures(path.join(REPO_ROOT, 'plugins', `bot-channel-${platform}`));
    const fake = await FakePlatform.start(fixtures.manifest.platform.routes);
    t.after(() => fake.close());
    const { settings } = checkSource(fixtures.manifest, fake.url);
    const source = (await api('POST', '/api/sources', { name: `${platform} e2e`, channel: platform, settings, defaultWorkflowId: greetingWorkflowId })) as { id: string; ref: string };
    const replies = () => fake.requests.filter((request) => request.body.includes(GREETING)).length;
    const stored = async () => Number((await database.db('inbound_events').where({ source_id: source.id }).count({ count: '*' }))[0]!.count);

    assert.equal(await deliver(fixtures, fixtures.manifest.replyTo, source.ref, settings), 200);
    await waitFor(`the fake ${platform} platform received no greeting`, () => replies() > 0);
    const storedOnce = await stored();

    assert.equal(await deliver(fixtures, fixtures.manifest.replyTo, source.ref, settings), 200, 'a retry is answered 200, so the platform stops retrying');
    assert.equal(await stored(), storedOnce, 'the retry is not stored again');
    // Nothing new was stored, so nothing can run; a moment to show no late second reply either.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(replies(), 1, `one greeting, got: ${JSON.stringify(fake.requests.map((request) => `${request.method} ${request.path} ${request.body}`))}`);
  });
}
