import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Request } from 'playwright-core';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expectEditorText, setEditorText } from './code-editor.ts';
import { expect } from './expect-page.ts';
import { profileGreetingYaml } from './workflow-fixtures.ts';

// Issue 23: the docked test chat talks to what the editor shows, turn after turn, as a test
// subscriber whose memory is shown and can be reset. One real `npm start`.
const skip = browserSkipReason();

const SAVED_GREET = `      text: '=$exists($context.memory.profile.name) ? "Hello " & $context.memory.profile.name & "!" : "Hello! What is your name?"'\n`;
// The unsaved edit: the greeting offers a quick reply, and its payload gets an answer of its own.
const DRAFT_GREET = `      text: '=$input.payload = "MORE" ? "More for " & $context.memory.profile.name : ($exists($context.memory.profile.name) ? "Hello " & $context.memory.profile.name & "!" : "Hello! What is your name?")'
      quick_replies:
        - title: Tell me more
          payload: MORE
`;

describe('the docked test chat', { skip }, () => {
  let admin: AdminHost;
  let workflowId: string;
  let savedYaml: string;
  before(async () => {
    admin = await startAdminHost();
    savedYaml = await profileGreetingYaml(admin);
    assert.ok(savedYaml.includes(SAVED_GREET));
    const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name: 'Greeting', yaml: savedYaml });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    workflowId = created.body.id;
    await admin.page.goto(await admin.loginLink());
    await expect(admin.page.getByText('admin (admin)')).visible();
  });
  after(() => admin?.close());

  test('talks to an unsaved edit over two turns, a quick reply sending the next one, and shows and resets the test memory', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/${workflowId}`);
    const chat = page.getByRole('region', { name: 'Test chat' });
    await expect(chat.getByRole('heading', { name: 'Test chat (v1)' })).visible();
    const memory = chat.getByRole('region', { name: 'Test memory' });
    await expect(memory).contains('Nothing remembered yet.');

    const edited = savedYaml.replace(SAVED_GREET, DRAFT_GREET);
    await setEditorText(page, edited);
    await expectEditorText(page, edited);
    await expect(chat.getByRole('heading', { name: 'Test chat (unsaved draft)' })).visible();

    const runBodies: Record<string, unknown>[] = [];
    const recordRun = (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/workflows/${workflowId}/runs`)) runBodies.push(request.postDataJSON());
    };
    page.on('request', recordRun);

    // Turn 1: typed.
    await chat.getByLabel('Message', { exact: true }).fill('my name is Ada');
    await chat.getByRole('button', { name: 'Run test' }).click();
    const transcript = chat.getByRole('list', { name: 'Messages' });
    await expect(transcript.locator('.chat-bubble-user')).text('my name is Ada');
    await expect(transcript.locator('.chat-bubble-bot').first()).contains('Hello Ada!');
    await expect(transcript.locator('.test-run-result').first()).contains('Ran the unsaved draft');
    await expect(chat.getByRole('list', { name: 'Steps' }).locator('li[data-task="greet"]')).contains('succeeded');
    await expect(memory.getByRole('list', { name: 'Test memory records' })).contains('"name": "Ada"');

    // Turn 2: the quick reply chip sends its payload.
    await transcript.getByRole('button', { name: 'Tell me more' }).click();
    await expect(transcript.locator('.chat-bubble-bot').nth(1)).contains('More for Ada');
    assert.equal(await transcript.locator('.chat-turn').count(), 2);
    await expect(transcript.locator('.chat-bubble-user').nth(1)).contains('Tell me more');
    // Only the latest turn's steps are open; the first turn's run folds away.
    assert.equal(await chat.getByRole('list', { name: 'Steps' }).count(), 1);
    await saveScreenshot(page, 'workflow-test-chat');

    assert.equal(runBodies.length, 2);
    assert.deepEqual(runBodies[0]!.history, [], 'the first turn has no history');
    assert.equal(runBodies[1]!.yaml, edited, 'each turn runs what the editor shows');
    assert.deepEqual(runBodies[1]!.input, { message_type: 'quickReply', text: 'Tell me more', payload: 'MORE' });
    assert.deepEqual(runBodies[1]!.history, [
      { role: 'user', text: 'my name is Ada' },
      { role: 'assistant', text: 'Hello Ada!' },
    ]);
    page.off('request', recordRun);
    const versions = await admin.api<{ total: number }>('GET', `/api/workflows/${workflowId}/versions`);
    assert.equal(versions.body.total, 1, 'nothing was saved');

    // Reset test memory: asks first, then the memory is gone and the bot has forgotten the name.
    await memory.getByRole('button', { name: 'Reset test memory' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset test memory?' });
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await expect(memory).contains('Nothing remembered yet.');
    assert.deepEqual(await admin.database.db('memory_records').where({ owner_id: 'test:admin' }).select('id'), []);

    await chat.getByRole('button', { name: 'New conversation' }).click();
    await expect(transcript).hidden();
    await chat.getByLabel('Message', { exact: true }).fill('hi');
    await chat.getByRole('button', { name: 'Run test' }).click();
    await expect(transcript.locator('.chat-bubble-bot').first()).contains('Hello! What is your name?');
    assert.equal(await transcript.locator('.chat-turn').count(), 1, 'a new conversation starts empty');
  });
});
