import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { HttpChannelHandler, isInjectable, z } from '@bot-ai/api';
import SlackChannel, { slackSettingsSchema } from 'bot-channel-slack';
import SlackChannelEntry from 'bot-channel-slack/index.channel';
import { createChannel } from './slack-fixtures.ts';

type JsonSchema = { properties: Record<string, Record<string, unknown>> };

function settingsJsonSchema(): JsonSchema {
  return z.toJSONSchema(slackSettingsSchema, { io: 'input' }) as JsonSchema;
}

test('the index.channel entry exports an injectable HTTP handler named slack', () => {
  assert.equal(SlackChannelEntry, SlackChannel);
  assert.ok(isInjectable(SlackChannelEntry));
  const channel = new SlackChannelEntry();
  assert.ok(channel instanceof HttpChannelHandler);
  assert.equal(channel.name, 'slack');
  assert.equal(channel.settingsSchema, slackSettingsSchema);
});

test('the settings have titles and descriptions, and the two secrets are password fields', () => {
  const json = settingsJsonSchema();
  assert.deepEqual(Object.keys(json.properties).sort(), ['api_base_url', 'bot_token', 'signing_secret']);
  for (const [name, property] of Object.entries(json.properties)) {
    assert.equal(typeof property.title, 'string', `${name} has a title`);
    assert.ok(String(property.description).length > 40, `${name} has a description`);
  }
  const passwords = Object.keys(json.properties).filter((name) => json.properties[name]!['ui:widget'] === 'password');
  assert.deepEqual(passwords.sort(), ['bot_token', 'signing_secret']);
  assert.match(String(json.properties.bot_token!.description), /xoxb-.*OAuth & Permissions/);
  assert.match(String(json.properties.signing_secret!.description), /Basic Information → App Credentials → Signing Secret/);
});

test("api_base_url is the one x-egress setting, an http(s) URL defaulting to Slack's Web API", () => {
  const json = settingsJsonSchema();
  const endpoints = Object.keys(json.properties).filter((name) => json.properties[name]!['x-egress'] === true);
  assert.deepEqual(endpoints, ['api_base_url']);
  assert.equal(json.properties.api_base_url!.pattern, '^https?://');
  assert.equal(json.properties.api_base_url!.default, 'https://slack.com/api');
  assert.deepEqual(slackSettingsSchema.parse({}), { bot_token: '', signing_secret: '', api_base_url: 'https://slack.com/api' });
});

for (const api_base_url of ['not a url', 'ftp://slack.com/api', 'javascript:alert(1)']) {
  test(`the settings reject the api_base_url ${JSON.stringify(api_base_url)}`, () => {
    assert.equal(slackSettingsSchema.safeParse({ api_base_url }).success, false);
  });
}

test("the package declares exactly Slack's hosts as egress", () => {
  const manifest = JSON.parse(readFileSync(new URL('../../../plugins/bot-channel-slack/package.json', import.meta.url), 'utf8')) as { bot: { egress: string[] } };
  assert.deepEqual(manifest.bot.egress, ['slack.com', 'files.slack.com']);
});

test('declares text, quick replies, buttons and attachments up to 40000 characters; no typing, lists, carousels or idempotent sends', () => {
  assert.deepEqual(createChannel().getCapabilities(), {
    text: true,
    quickReply: true,
    buttons: true,
    attachment: true,
    list: false,
    carousel: false,
    typingIndicator: false,
    maxTextLength: 40000,
    idempotentSends: false,
  });
});
