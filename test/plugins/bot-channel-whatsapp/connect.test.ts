import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, createSource, SETTINGS } from './whatsapp-fixtures.ts';

const webhookUrl = 'https://bot.example.com/api/webhook/ref-1';

test('does not connect by itself but gives the App Dashboard steps with this source\'s callback URL', async () => {
  const result = await createChannel().connect(createSource(SETTINGS), { webhookUrl });
  assert.equal(result.connected, false);
  assert.match(result.message, /App Dashboard/);
  const instructions = result.instructions ?? '';
  assert.match(instructions, /WhatsApp → Configuration/);
  assert.ok(instructions.includes(`Callback URL: ${webhookUrl}`));
  assert.match(instructions, /Verify token/);
  assert.match(instructions, /`messages` field/);
  assert.doesNotMatch(instructions, /First fill in/);
});

test('never repeats the verify token (a secret) in the instructions', async () => {
  const result = await createChannel().connect(createSource({ ...SETTINGS, verify_token: 'verify-secret-xyz' }), { webhookUrl });
  assert.doesNotMatch(`${result.message}\n${result.instructions ?? ''}`, /verify-secret-xyz/);
});

test('names the settings still missing before the webhook can work', async () => {
  const result = await createChannel().connect(createSource({}), { webhookUrl });
  assert.match(result.instructions ?? '', /^1\. First fill in this source's settings: Verify token, App secret, Access token, Phone number ID/);
});
