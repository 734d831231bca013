import assert from 'node:assert/strict';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import { browserSkipReason, launchChromium, saveScreenshot } from '../support/browser.ts';
import { startHostProcess, type HostProcess } from '../support/host-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

// One real `npm start` on this file's own database and one phone-sized page; the tests build on
// each other (the name told in the first is remembered after the reload of the second).
const skip = browserSkipReason();
const AUTH_SECRET = 'chat-page-test-auth-secret-0123456789abcdef';
const GREETING = new URL('../../workflows/examples/greeting.yaml', import.meta.url);
const MENU_YAML = `description: Offers colours as quick replies and names the one chosen
defs:
  answer:
    kind: task
    action: send_text_message
    inputs:
      text: '=$exists($input.payload) ? "You picked " & $input.payload : "Pick a colour"'
      quick_replies: [{ title: Red, payload: RED }, { title: Blue, payload: BLUE }]
flow:
  - do: answer
`;

describe('chat page', { skip }, () => {
  let database: TestDatabase;
  let dataDir: string;
  let host: HostProcess;
  let browser: Browser;
  let page: Page;
  let chatUrl: string;
  let sourceId: string;

  async function api(method: string, apiPath: string, body: unknown): Promise<Record<string, string>> {
    const response = await fetch(`${host.url}${apiPath}`, {
      method,
      headers: { authorization: `Bearer ${signAdminToken({ sub: 'chat-test', role: 'admin' }, AUTH_SECRET, { ttl: '1h' })}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 201, `${apiPath}: ${await response.clone().text()}`);
    return (await response.json()) as Record<string, string>;
  }

  const botMessages = () => page.getByTestId('bot-message');

  async function say(text: string): Promise<void> {
    await page.locator('#input').fill(text);
    await page.locator('#input').press('Enter');
  }

  before(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'bot-chat-page-'));
    host = await startHostProcess({
      DATABASE_URL: database.url,
      BOT_DATA_DIR: dataDir,
      BOT_AUTH_SECRET: AUTH_SECRET,
      BOT_DOWNLOAD_SECRET: 'chat-page-test-download-secret-0123456789ab',
      BOT_WEB_SESSION_SECRET: 'chat-page-test-session-secret-0123456789ab',
      BOT_SANDBOX_MAX_THREADS: '1',
    });
    const definition = await api('POST', '/api/memory-definitions', {
      name: 'Profile',
      slug: 'profile',
      scope: 'global',
      schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
    });
    const yaml = bindDefinitionPlaceholders(await readFile(GREETING, 'utf8'), new Map([['profile', definition.id!]]));
    const workflow = await api('POST', '/api/workflows', { name: 'Greeting', yaml });
    const source = await api('POST', '/api/sources', { name: 'Web chat', channel: 'web', settings: { title: 'Greeting bot' }, defaultWorkflowId: workflow.id });
    sourceId = source.id!;
    chatUrl = `${host.url}/chat/${source.ref}`;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    page.setDefaultTimeout(10_000);
  });

  after(async () => {
    if (process.env.DEBUG_CHAT) console.log(host?.output());
    await browser?.close();
    await host?.stop();
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('the page connects, sends "hello" and shows the workflow reply', async () => {
    await page.goto(chatUrl);
    assert.equal(await page.locator('h1').textContent(), 'Greeting bot');
    await page.getByText('Online').waitFor();
    await say('hello');
    await page.getByTestId('user-message').filter({ hasText: 'hello' }).waitFor();
    await botMessages().filter({ hasText: 'Hello! What is your name?' }).waitFor();
    await say('my name is Ada');
    await botMessages().filter({ hasText: 'Hello Ada!' }).waitFor();
    await saveScreenshot(page, 'chat-first-visit');
  });

  test('after a reload the conversation continues with the same subscriber and memory', async () => {
    await page.reload();
    await page.getByText('Online').waitFor();
    assert.deepEqual(await botMessages().allTextContents(), ['Hello! What is your name?', 'Hello Ada!'], 'the history is shown again');
    await say('how are you?');
    await botMessages().nth(2).waitFor();
    assert.equal(await botMessages().last().textContent(), 'Hello Ada!');
    const subscribers = await database.db('subscribers').where({ source_id: sourceId });
    assert.equal(subscribers.length, 1, 'one browser, one subscriber');
    await saveScreenshot(page, 'chat-after-reload');
  });

  test('quick replies show as chips under the latest reply; a tap sends its payload', async () => {
    const workflow = await api('POST', '/api/workflows', { name: 'Menu', yaml: MENU_YAML });
    const source = await api('POST', '/api/sources', { name: 'Menu chat', channel: 'web', settings: { title: 'Menu' }, defaultWorkflowId: workflow.id });
    await page.goto(`${host.url}/chat/${source.ref}`);
    await page.getByText('Online').waitFor();
    await say('menu please');
    await botMessages().filter({ hasText: 'Pick a colour' }).waitFor();
    await page.getByRole('button', { name: 'Blue' }).click();
    await botMessages().filter({ hasText: 'You picked BLUE' }).waitFor();
    assert.equal(await page.getByTestId('user-message').last().textContent(), 'Blue');
    await saveScreenshot(page, 'chat-quick-replies');
  });
});
