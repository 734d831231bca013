/**
 * As a run starts on an inbound event of an HTTP channel whose capabilities say
 * `typingIndicator: true`, the host calls the channel's typing indicator without waiting for it:
 * a slow or failing indicator neither delays nor fails the run, and is not tried again. The
 * fixture channels (package channels, in their runners) reach "the platform", a local listener,
 * through the SDK's fetch at their source's `api_url` (an x-egress setting).
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { captureLogs } from '../access-control/captured-logs.ts';
import type { Dispatcher } from '../../host/dispatch/dispatcher.ts';
import { startListener, type Listener, type ReceivedRequest } from '../egress/egress-fixtures.ts';
import { expectCreated } from '../support/expect-created.ts';
import { createGreetingWorkflow, startDispatcher } from '../support/greeting-setup.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const APP_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/platform-calls', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 100, idleTimeoutMs: 10_000 };
const WARN = 40;

const logs = captureLogs();
let app: TestApp;
let dispatcher: Dispatcher;
let workflowId: string;

before(async () => {
  app = await createTestApp({ channels: { appRoot: APP_ROOT, sandbox: SANDBOX }, logger: logs.logger });
  await app.services.channels.load();
  dispatcher = await startDispatcher(app);
  workflowId = (await createGreetingWorkflow(app)).id as string;
});
after(async () => {
  await dispatcher.stop();
  await app.close();
});

/** A platform whose answers to `/typing` wait until the test lets them go; every other call answers 200 at once. */
interface Platform extends Listener {
  heldTyping: ServerResponse[];
  releaseTyping(): void;
}

async function startPlatform(t: Parameters<typeof startListener>[0]): Promise<Platform> {
  const heldTyping: ServerResponse[] = [];
  const answer = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  const listener = await startListener(t, (request: ReceivedRequest, res) => (request.url === '/typing' ? heldTyping.push(res) : answer(res)));
  const releaseTyping = () => heldTyping.splice(0).forEach((res) => res.destroyed || answer(res));
  t.after(releaseTyping);
  return { ...listener, heldTyping, releaseTyping };
}

async function createSource(channel: string, platform: Listener): Promise<{ id: string; ref: string }> {
  const source = await expectCreated(app, '/api/sources', { name: `${channel} ${platform.port}`, channel, settings: { api_url: platform.origin }, defaultWorkflowId: workflowId });
  return source as { id: string; ref: string };
}

async function deliver(ref: string, id: string, from: string, text: string): Promise<void> {
  const response = await app.request('POST', `/api/webhook/${ref}`, { body: { messages: [{ id, from, text }] } });
  assert.equal(response.status, 200, response.text);
}

/** Polls until `check` holds: each poll is short, the wait is for an event. */
async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function statusOf(eventId: string): Promise<string | undefined> {
  const row = await app.database.db('inbound_events').where({ event_id: eventId }).first('status');
  return row?.status;
}

const paths = (platform: Listener) => platform.received.map((request) => request.url);

test('a run on a channel with typingIndicator: true calls typing first and does not wait for it', async (t) => {
  const platform = await startPlatform(t);
  const source = await createSource('platform_calls', platform);
  await deliver(source.ref, 'typing-1', 'ada', 'hi');
  await waitUntil('the reply', () => paths(platform).includes('/send'));
  // The indicator is still unanswered while the reply goes out: the run did not wait for it.
  assert.equal(platform.heldTyping.length, 1);
  assert.equal(platform.heldTyping[0]!.destroyed, false, 'the typing request was given up on before the reply');
  platform.releaseTyping();
  assert.deepEqual(paths(platform), ['/typing', '/send']);
  assert.deepEqual(JSON.parse(platform.received[0]!.body), { to: 'ada', source: source.id });
  await waitUntil('the event done', async () => (await statusOf('typing-1')) === 'done');
});

test('a typing indicator that fails is logged at warn with its code, once, and the run goes on', async (t) => {
  const platform = await startPlatform(t);
  const source = await createSource('platform_calls', platform);
  await deliver(source.ref, 'typing-2', 'bob', 'typing-fails');
  await waitUntil('the event done', async () => (await statusOf('typing-2')) === 'done');
  assert.deepEqual(paths(platform), ['/send']);
  const warned = () => logs.lines().map((line) => JSON.parse(line)).filter((line) => line.level === WARN && line.msg.startsWith('typing indicator failed'));
  await waitUntil('the warning', () => warned().length > 0);
  assert.equal(warned().length, 1);
  assert.equal(warned()[0].code, 'BOT_ERR_PLUGIN_THREW');
  assert.equal(warned()[0].cause, 'PROBE_ERR_TYPING');
  assert.equal(warned()[0].channel, 'platform_calls');
});

test('a run on a channel with typingIndicator: false makes no typing call', async (t) => {
  const platform = await startPlatform(t);
  const source = await createSource('quiet', platform);
  await deliver(source.ref, 'typing-3', 'carol', 'hi');
  await waitUntil('the event done', async () => (await statusOf('typing-3')) === 'done');
  await waitUntil('the reply', () => paths(platform).includes('/send'));
  // A typing call would have been made before the run's reply, so it would be here by now.
  assert.deepEqual(paths(platform), ['/send']);
});
