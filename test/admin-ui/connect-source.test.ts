/**
 * "Connect to <channel>" on a source's page, in Chromium against a real `npm start` with the
 * repository's own channel packages: Telegram's connect step calls setWebhook on a fake Bot API
 * (the source's `api_base_url`) and the page says it is connected; Slack's answers with an app
 * manifest to copy, shown as it is; a channel without a connect step shows no button. No secret
 * of the source reaches the page.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expect, expectUrl } from './expect-page.ts';

// One `npm start`, one fake Bot API and one page for the whole file; the tests run in order
// (signed in by the first).
const skip = browserSkipReason();

const TELEGRAM_SETTINGS = { bot_token: '7000000042:AAConnectTestToken_abcdefghijklmnop', secret_token: 'connect-test-secret_42' };
const SLACK_SETTINGS = { bot_token: 'xoxb-connect-test-0000-abcdefghijkl', signing_secret: 'slack-connect-test-signing-secret' };
const SAMPLE_SECRETS = { api_key: 'sk-connect-sample', webhook_secret: 'whsec-connect-sample' };
/** Every secret the sources hold: none may be on the page, whatever the connect step answered. */
const SECRETS = [...Object.values(TELEGRAM_SETTINGS), ...Object.values(SLACK_SETTINGS), ...Object.values(SAMPLE_SECRETS)];
// A channel starts its sandboxed runner after the host listens: sources wait for it.
const CHANNELS_TIMEOUT_MS = 30_000;

interface CreatedSource {
  id: string;
  ref: string;
  webhookUrl: string;
}

interface RecordedCall {
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
}

/** A Telegram Bot API that sets every webhook it is asked to, and records each call. */
async function startFakeTelegram(): Promise<{ url: string; calls: RecordedCall[]; close(): Promise<void> }> {
  const calls: RecordedCall[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      calls.push({ method: request.method ?? '', path: request.url ?? '', contentType: request.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, result: true, description: 'Webhook was set' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Everything the page shows or holds: its text, its markup (attributes) and its fields' values. */
async function pageTexts(page: Page): Promise<string> {
  const values = await page.locator('input, textarea, select').evaluateAll((fields) => fields.map((field) => (field as unknown as { value: string }).value));
  return [await page.locator('body').innerText(), await page.content(), ...values].join('\n');
}

async function assertNoSecret(page: Page): Promise<void> {
  const texts = await pageTexts(page);
  for (const secret of SECRETS) assert.ok(!texts.includes(secret), `the page shows the secret ${secret}`);
}

describe('connect a source to its platform', { skip }, () => {
  let admin: AdminHost;
  let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
  let telegramSource: CreatedSource;
  let slackSource: CreatedSource;
  let sampleSource: CreatedSource;

  before(async () => {
    telegram = await startFakeTelegram();
    admin = await startAdminHost();
    await channelsRunning(['telegram', 'slack', 'sample']);
    telegramSource = await createSource('Telegram bot', 'telegram', { ...TELEGRAM_SETTINGS, api_base_url: telegram.url });
    slackSource = await createSource('Slack app', 'slack', SLACK_SETTINGS);
    sampleSource = await createSource('Sample shop', 'sample', { api_url: 'http://127.0.0.1:9/api', ...SAMPLE_SECRETS });
  });
  after(async () => {
    await admin?.close();
    await telegram?.close();
  });

  async function channelsRunning(names: string[]): Promise<void> {
    const deadline = Date.now() + CHANNELS_TIMEOUT_MS;
    for (;;) {
      const { body } = await admin.api<{ items: { name: string; running: boolean; connectable: boolean }[] }>('GET', '/api/channel');
      const running = body.items.filter((channel) => channel.running).map((channel) => channel.name);
      if (names.every((name) => running.includes(name))) return;
      if (Date.now() > deadline) assert.fail(`channels ${names.join(', ')} not running; running: ${running.join(', ')}\n${admin.host.output().slice(-4_000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function createSource(name: string, channel: string, settings: Record<string, unknown>): Promise<CreatedSource> {
    const created = await admin.api<CreatedSource>('POST', '/api/sources', { name, channel, settings });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body;
  }

  /** Opens the source's page from the Sources list, as an operator would. */
  async function openSource(name: string, id: string): Promise<void> {
    const { page } = admin;
    await page.getByRole('link', { name: 'Sources', exact: true }).click();
    await page.getByRole('link', { name, exact: true }).click();
    await expectUrl(page, `${admin.host.url}/sources/${id}`);
    await expect(page.getByRole('heading', { name: `Source "${name}"` })).visible();
    // Loaded: the webhook URL is shown beside where the Connect button would be.
    await expect(page.getByLabel('Webhook URL', { exact: true })).visible();
  }

  test('Connect on a Telegram source sets the webhook through the Bot API and says so', async () => {
    const { page } = admin;
    await page.goto(await admin.loginLink());
    await expectUrl(page, `${admin.host.url}/workflows`);
    await openSource('Telegram bot', telegramSource.id);
    await expect(page.getByLabel('Webhook URL', { exact: true })).value(telegramSource.webhookUrl);
    assert.equal(telegram.calls.length, 0, 'nothing is called before Connect');

    await page.getByRole('button', { name: 'Connect to telegram' }).click();
    const status = page.locator('.connect-source [role="status"]');
    await expect(status).text(`Telegram now posts message and callback_query updates to ${telegramSource.webhookUrl}`);
    assert.equal(await status.getAttribute('class'), 'notice', 'shown as a success');
    await expect(page.getByRole('button', { name: 'Connect to telegram' })).visible();
    await saveScreenshot(page, 'connect-telegram');

    assert.equal(telegram.calls.length, 1, `one call, got: ${JSON.stringify(telegram.calls)}`);
    const [call] = telegram.calls;
    assert.equal(call!.method, 'POST');
    assert.equal(call!.path, `/bot${TELEGRAM_SETTINGS.bot_token}/setWebhook`);
    assert.match(call!.contentType ?? '', /^application\/json/);
    const body = JSON.parse(call!.body) as { url: string; secret_token: string };
    assert.ok(body.url.endsWith(`/api/webhook/${telegramSource.ref}`), `setWebhook url ${body.url}`);
    assert.equal(body.url, telegramSource.webhookUrl);
    assert.equal(body.secret_token, TELEGRAM_SETTINGS.secret_token);
    await assertNoSecret(page);
  });

  test('Connect on a Slack source shows the app manifest to copy, with the webhook URL in it', async () => {
    const { page } = admin;
    await openSource('Slack app', slackSource.id);
    await page.getByRole('button', { name: 'Connect to slack' }).click();
    const status = page.locator('.connect-source [role="status"]');
    await expect(status).contains('Slack cannot be connected from here: create the app from the manifest below');
    assert.equal(await status.getAttribute('class'), 'warning', 'not connected yet: a warning, not a success');
    const manifestBlock = page.getByLabel('Connect instructions');
    await expect(manifestBlock).contains(slackSource.webhookUrl);
    // Shown as the JSON to paste, not as a string of it (no quotes or \n escapes around it).
    const manifest = JSON.parse((await manifestBlock.textContent()) ?? '') as { settings: { event_subscriptions: { request_url: string }; interactivity: { request_url: string } } };
    assert.equal(manifest.settings.event_subscriptions.request_url, slackSource.webhookUrl);
    assert.equal(manifest.settings.interactivity.request_url, slackSource.webhookUrl);
    await expect(page.locator('.connect-source').getByRole('button', { name: 'Copy', exact: true })).visible();
    await saveScreenshot(page, 'connect-slack');
    assert.equal(telegram.calls.length, 1, 'the Slack source calls no Telegram');
    await assertNoSecret(page);
  });

  test('a source of a channel without a connect step has no Connect button', async () => {
    const { page } = admin;
    await openSource('Sample shop', sampleSource.id);
    await expect(page.getByRole('button', { name: 'Save' })).visible();
    assert.equal(await page.getByRole('button', { name: /^Connect/ }).count(), 0, 'no Connect button for the sample channel');
    assert.equal(await page.locator('.connect-source').count(), 0);
    // The same page of a connectable channel's source has one: the sample's lacks it for its channel.
    await openSource('Telegram bot', telegramSource.id);
    await expect(page.getByRole('button', { name: 'Connect to telegram' })).visible();
    await assertNoSecret(page);
  });
});
