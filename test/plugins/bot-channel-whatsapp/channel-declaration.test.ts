import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { HttpChannelHandler, isInjectable, z } from '@bot-ai/api';
import WhatsAppChannel, { whatsAppSettingsSchema } from 'bot-channel-whatsapp';
import WhatsAppChannelEntry from 'bot-channel-whatsapp/index.channel';
import { createChannel } from './whatsapp-fixtures.ts';

type JsonSchema = { properties: Record<string, Record<string, unknown>> };
const json = z.toJSONSchema(whatsAppSettingsSchema, { io: 'input' }) as JsonSchema;

test('the index.channel entry exports an injectable HTTP handler named whatsapp', () => {
  assert.equal(WhatsAppChannelEntry, WhatsAppChannel);
  assert.ok(isInjectable(WhatsAppChannelEntry));
  const channel = new WhatsAppChannelEntry();
  assert.ok(channel instanceof HttpChannelHandler);
  assert.equal(channel.name, 'whatsapp');
  assert.equal(channel.settingsSchema, whatsAppSettingsSchema);
});

test('the settings schema converts to JSON Schema with a title and description on every field, secrets as passwords', () => {
  assert.deepEqual(Object.keys(json.properties).sort(), ['access_token', 'api_base_url', 'api_version', 'app_secret', 'phone_number_id', 'verify_token']);
  for (const [name, property] of Object.entries(json.properties)) {
    assert.equal(typeof property.title, 'string', `${name} has a title`);
    assert.equal(typeof property.description, 'string', `${name} has a description`);
  }
  const passwords = Object.keys(json.properties).filter((name) => json.properties[name]!['ui:widget'] === 'password');
  assert.deepEqual(passwords.sort(), ['access_token', 'app_secret', 'verify_token']);
});

test('the secrets say where in the Meta dashboards to find them', () => {
  assert.match(String(json.properties.app_secret!.description), /App settings → Basic → App secret/);
  assert.match(String(json.properties.access_token!.description), /System user/i);
  assert.match(String(json.properties.verify_token!.description), /WhatsApp → Configuration/);
  assert.match(String(json.properties.phone_number_id!.description), /API Setup → Phone number ID/);
});

test('api_base_url is the one setting marked x-egress, an http(s) URL defaulting to the Graph API', () => {
  const endpoints = Object.keys(json.properties).filter((name) => json.properties[name]!['x-egress'] === true);
  assert.deepEqual(endpoints, ['api_base_url']);
  assert.equal(json.properties.api_base_url!.pattern, '^https?://');
  assert.equal(json.properties.api_base_url!.format, 'uri');
});

test('the settings default to the Graph API, v21.0 and empty secrets', () => {
  assert.deepEqual(whatsAppSettingsSchema.parse({}), {
    access_token: '',
    app_secret: '',
    verify_token: '',
    phone_number_id: '',
    api_version: 'v21.0',
    api_base_url: 'https://graph.facebook.com',
  });
});

const badSettings: Array<[string, Record<string, unknown>]> = [
  ['an api_base_url that is not a URL', { api_base_url: 'graph.facebook.com' }],
  ['an ftp api_base_url', { api_base_url: 'ftp://graph.facebook.com' }],
  ['a javascript: api_base_url', { api_base_url: 'javascript:alert(1)' }],
  ['an api_version that would change the path', { api_version: 'v21.0/../me' }],
  ['an api_version without the v', { api_version: '21.0' }],
  ['a phone_number_id that is not digits', { phone_number_id: '106540352242922/messages?x=' }],
];

for (const [name, settings] of badSettings) {
  test(`the settings reject ${name}`, () => {
    assert.equal(whatsAppSettingsSchema.safeParse(settings).success, false);
  });
}

test('package.json declares exactly the Cloud API hosts as egress: the Graph API and its media host', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../../plugins/bot-channel-whatsapp/package.json', import.meta.url), 'utf8')) as { bot: { egress: string[] } };
  assert.deepEqual(manifest.bot.egress, ['graph.facebook.com', 'lookaside.fbsbx.com']);
});

test('declares text, quick replies, buttons, attachments and typing, 4096 characters per text, and no idempotent sends', () => {
  assert.deepEqual(createChannel().getCapabilities(), {
    text: true,
    quickReply: true,
    buttons: true,
    attachment: true,
    list: false,
    carousel: false,
    typingIndicator: true,
    maxTextLength: 4096,
    idempotentSends: false,
  });
});
