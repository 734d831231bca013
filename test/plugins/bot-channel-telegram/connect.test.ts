import assert from 'node:assert/strict';
import { test } from 'node:test';
import nock from 'nock';
import { botApiAnswers, createChannel, createSource, SECRET_TOKEN, SETTINGS } from './telegram-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const webhookUrl = 'https://bot.example.com/api/webhook/ref-source-1';

useNockedEgress();

test('sets the webhook with the secret token, for message and callback_query updates only', async () => {
  const { scope, received } = botApiAnswers('setWebhook', 200, { ok: true, result: true, description: 'Webhook was set' });
  const result = await createChannel().connect(createSource(), { webhookUrl });
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { url: webhookUrl, secret_token: SECRET_TOKEN, allowed_updates: ['message', 'callback_query'] });
  assert.equal(result.connected, true);
  assert.match(result.message, new RegExp(`message and callback_query updates to ${webhookUrl}`));
});

const missing: Array<[string, Record<string, unknown>, string]> = [
  ['bot token', { secret_token: SECRET_TOKEN }, 'TELEGRAM_ERR_NO_BOT_TOKEN'],
  ['secret token', { bot_token: SETTINGS.bot_token }, 'TELEGRAM_ERR_NO_SECRET_TOKEN'],
];

for (const [name, settings, code] of missing) {
  test(`refuses to connect without a ${name}, with a clear ChannelError and no call`, async () => {
    let called = false;
    nock('https://api.telegram.org').post(/setWebhook$/).optionally().reply(() => {
      called = true;
      return [200, { ok: true, result: true }];
    });
    await assert.rejects(createChannel().connect(createSource(settings), { webhookUrl }), { name: 'ChannelError', code, message: new RegExp(`Set the ${name === 'bot token' ? 'bot token' : 'webhook secret token'}`) });
    assert.equal(called, false);
  });
}

test("reports Telegram's refusal of the URL as not connected, in Telegram's words", async () => {
  botApiAnswers('setWebhook', 400, { ok: false, error_code: 400, description: 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook' });
  const result = await createChannel().connect(createSource(), { webhookUrl: 'http://bot.example.com/api/webhook/ref' });
  assert.deepEqual(result, { connected: false, message: 'Telegram refused setWebhook (HTTP 400): Bad Request: bad webhook: An HTTPS URL must be provided for webhook' });
});

test('reports a revoked bot token as not connected', async () => {
  botApiAnswers('setWebhook', 401, { ok: false, error_code: 401, description: 'Unauthorized' });
  assert.deepEqual(await createChannel().connect(createSource(), { webhookUrl }), { connected: false, message: 'Telegram refused setWebhook (HTTP 401): Unauthorized' });
});

test('throws when the Bot API cannot be reached', async () => {
  nock('https://api.telegram.org').post(/setWebhook$/).replyWithError('getaddrinfo ENOTFOUND api.telegram.org');
  await assert.rejects(createChannel().connect(createSource(), { webhookUrl }), { code: 'TELEGRAM_ERR_UNREACHABLE' });
});
