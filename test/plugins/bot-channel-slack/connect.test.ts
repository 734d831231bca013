import assert from 'node:assert/strict';
import { test } from 'node:test';
import nock from 'nock';
import { createChannel, createSource } from './slack-fixtures.ts';

const webhookUrl = 'https://bot.example.com/api/webhook/src-7f3a';

test('connect gives an app manifest with the webhook URL for events and interactivity, the bot events and scopes', async () => {
  nock.disableNetConnect();
  try {
    const result = await createChannel().connect(createSource(), { webhookUrl });
    assert.equal(result.connected, false);
    assert.match(result.message, /api\.slack\.com\/apps → Create New App → From a manifest/);
    const manifest = JSON.parse(result.instructions!) as {
      features: { bot_user: { display_name: string }; app_home: { messages_tab_enabled: boolean; messages_tab_read_only_enabled: boolean } };
      oauth_config: { scopes: { bot: string[] } };
      settings: { event_subscriptions: { request_url: string; bot_events: string[] }; interactivity: { is_enabled: boolean; request_url: string }; socket_mode_enabled: boolean };
    };
    assert.equal(manifest.settings.event_subscriptions.request_url, webhookUrl);
    assert.deepEqual(manifest.settings.event_subscriptions.bot_events, ['message.im', 'app_mention']);
    assert.deepEqual(manifest.settings.interactivity, { is_enabled: true, request_url: webhookUrl });
    assert.equal(manifest.settings.socket_mode_enabled, false);
    assert.deepEqual(manifest.oauth_config.scopes.bot.sort(), ['app_mentions:read', 'chat:write', 'files:read', 'im:history', 'users:read']);
    assert.equal(manifest.features.app_home.messages_tab_enabled, true);
    assert.equal(manifest.features.app_home.messages_tab_read_only_enabled, false);
    assert.ok(manifest.features.bot_user.display_name);
  } finally {
    nock.enableNetConnect();
  }
});

test("connect says which secrets the source still needs, and where Slack shows them", async () => {
  const empty = await createChannel().connect(createSource({}), { webhookUrl });
  assert.match(empty.message, /copy the Bot User OAuth Token and the Signing Secret into this source's settings/);
  const withToken = await createChannel().connect(createSource({ bot_token: 'xoxb-1' }), { webhookUrl });
  assert.match(withToken.message, /copy the Signing Secret into/);
  const complete = await createChannel().connect(createSource({ bot_token: 'xoxb-1', signing_secret: 's' }), { webhookUrl });
  assert.match(complete.message, /already has a bot token and a signing secret/);
});
