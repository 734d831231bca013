import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { HttpChannelHandler, isInjectable, z } from '@bot-ai/api';
import MessengerChannel, { messengerSettingsSchema } from 'bot-channel-messenger';
import MessengerChannelEntry from 'bot-channel-messenger/index.channel';
import { createChannel } from './messenger-test-kit.ts';

type JsonProperties = Record<string, Record<string, unknown>>;
const properties = (z.toJSONSchema(messengerSettingsSchema, { io: 'input' }) as { properties: JsonProperties }).properties;

test('the index.channel entry exports an injectable HTTP handler named messenger', () => {
  assert.equal(MessengerChannelEntry, MessengerChannel);
  assert.ok(isInjectable(MessengerChannelEntry));
  const channel = new MessengerChannelEntry();
  assert.ok(channel instanceof HttpChannelHandler);
  assert.equal(channel.name, 'messenger');
  assert.equal(channel.settingsSchema, messengerSettingsSchema);
});

test('the settings schema converts to JSON Schema, every field with a title and a description', () => {
  assert.deepEqual(Object.keys(properties).sort(), ['api_base_url', 'api_version', 'app_secret', 'page_access_token', 'page_id', 'verify_token']);
  for (const [name, property] of Object.entries(properties)) {
    assert.equal(typeof property.title, 'string', `${name} has a title`);
    assert.ok(String(property.description).length > 20, `${name} has a description`);
  }
});

test('the three secrets are password fields, and each says where on Meta to find or enter it', () => {
  const passwords = Object.keys(properties).filter((name) => properties[name]!['ui:widget'] === 'password');
  assert.deepEqual(passwords.sort(), ['app_secret', 'page_access_token', 'verify_token']);
  for (const name of passwords) assert.match(String(properties[name]!.description), /App Dashboard/);
});

test("api_base_url is the one x-egress setting: an http(s) URL whose origin the host lets the channel's fetch reach", () => {
  const endpoints = Object.keys(properties).filter((name) => properties[name]!['x-egress'] === true);
  assert.deepEqual(endpoints, ['api_base_url']);
  assert.equal(properties.api_base_url!.format, 'uri');
  assert.equal(properties.api_base_url!.pattern, '^https?://');
});

test('the settings default to the real Graph API, v21.0, no Page filter and empty secrets', () => {
  assert.deepEqual(messengerSettingsSchema.parse({}), {
    page_access_token: '',
    app_secret: '',
    verify_token: '',
    page_id: '',
    api_version: 'v21.0',
    api_base_url: 'https://graph.facebook.com',
  });
});

const refused: Array<[string, Record<string, unknown>]> = [
  ['an api_base_url that is not a URL', { api_base_url: 'graph' }],
  ['an ftp api_base_url', { api_base_url: 'ftp://graph.facebook.com' }],
  ['a javascript: api_base_url', { api_base_url: 'javascript:alert(1)' }],
  ['an api_version without the v', { api_version: '21.0' }],
  ['an api_version with a path in it', { api_version: 'v21.0/../x' }],
  ['a page_id that is not digits', { page_id: 'my-page' }],
];
for (const [name, settings] of refused) {
  test(`the settings refuse ${name}`, () => {
    assert.equal(messengerSettingsSchema.safeParse(settings).success, false);
  });
}

test('package.json keeps bot.egress to the Graph API and the attachment CDNs, and the peer ranges of the guide', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../../plugins/bot-channel-messenger/package.json', import.meta.url), 'utf8'));
  assert.deepEqual(manifest.bot.egress, ['graph.facebook.com', '*.fbcdn.net', '*.fbsbx.com']);
  assert.deepEqual(manifest.peerDependencies, { '@bot-ai/api': '>=3 <4', '@bot-ai/types': '>=3 <4', '@nestjs/common': '^11.1.6', zod: '^4.3.6' });
  assert.equal(manifest.dependencies, undefined);
});

test('declares every outgoing type, typing, 2000 characters per message, and no idempotent sends (the Send API does not deduplicate)', () => {
  assert.deepEqual(createChannel().getCapabilities(), {
    text: true,
    quickReply: true,
    buttons: true,
    attachment: true,
    list: true,
    carousel: true,
    typingIndicator: true,
    maxTextLength: 2000,
    idempotentSends: false,
  });
});
