import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { HttpChannelHandler, isInjectable, z } from '@bot-ai/api';
import TelegramChannel, { telegramBotIdOf, telegramSettingsSchema } from 'bot-channel-telegram';
import TelegramChannelEntry from 'bot-channel-telegram/index.channel';
import { createChannel } from './telegram-fixtures.ts';

type JsonProperties = Record<string, Record<string, unknown>>;

function settingsProperties(): JsonProperties {
  return (z.toJSONSchema(telegramSettingsSchema, { io: 'input' }) as { properties: JsonProperties }).properties;
}

test('the index.channel entry exports an injectable HTTP handler named telegram', () => {
  assert.equal(TelegramChannelEntry, TelegramChannel);
  assert.ok(isInjectable(TelegramChannelEntry));
  const channel = new TelegramChannelEntry();
  assert.ok(channel instanceof HttpChannelHandler);
  assert.equal(channel.name, 'telegram');
  assert.equal(channel.settingsSchema, telegramSettingsSchema);
});

test('the settings schema converts to JSON Schema with a title and description on every field and password widgets on the two secrets', () => {
  const properties = settingsProperties();
  assert.deepEqual(Object.keys(properties).sort(), ['api_base_url', 'bot_token', 'secret_token']);
  for (const [name, property] of Object.entries(properties)) {
    assert.equal(typeof property.title, 'string', `${name} has a title`);
    assert.ok(String(property.description).length > 40, `${name} has a description`);
  }
  const passwords = Object.keys(properties).filter((name) => properties[name]!['ui:widget'] === 'password');
  assert.deepEqual(passwords.sort(), ['bot_token', 'secret_token']);
  assert.match(String(properties.bot_token!.description), /@BotFather/);
  assert.match(String(properties.secret_token!.description), /X-Telegram-Bot-Api-Secret-Token/);
});

test('api_base_url is the one x-egress setting: an http(s) URL defaulting to the real Bot API', () => {
  const properties = settingsProperties();
  const endpoints = Object.keys(properties).filter((name) => properties[name]!['x-egress'] === true);
  assert.deepEqual(endpoints, ['api_base_url']);
  assert.equal(properties.api_base_url!.pattern, '^https?://');
  assert.equal(properties.api_base_url!.format, 'uri');
  assert.equal(properties.api_base_url!.default, 'https://api.telegram.org');
});

test('the settings default to the real API and empty secrets', () => {
  assert.deepEqual(telegramSettingsSchema.parse({}), { bot_token: '', secret_token: '', api_base_url: 'https://api.telegram.org' });
});

const refused: Array<[string, Record<string, unknown>]> = [
  ['an api_base_url that is not a URL', { api_base_url: 'api.telegram.org' }],
  ['an ftp api_base_url', { api_base_url: 'ftp://api.telegram.org' }],
  ['a javascript: api_base_url', { api_base_url: 'javascript:alert(1)' }],
  ['a secret_token with a space', { secret_token: 'my secret' }],
  ['a secret_token with a character setWebhook refuses', { secret_token: 'secret!' }],
  ['a secret_token of 257 characters', { secret_token: 'a'.repeat(257) }],
  ['a bot_token without its bot id', { bot_token: 'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' }],
  ['a bot_token with a slash, which would change the API path', { bot_token: '123456:abc/../other' }],
  ['a bot_token pasted with a trailing space', { bot_token: '123456:abc ' }],
];

for (const [name, settings] of refused) {
  test(`the settings refuse ${name}`, () => {
    assert.equal(telegramSettingsSchema.safeParse(settings).success, false);
  });
}

test('the settings accept a real-shaped bot token and a 256-character secret token', () => {
  const settings = { bot_token: '110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', secret_token: 'A-z_0'.repeat(51) + 'x', api_base_url: 'http://127.0.0.1:8081' };
  assert.deepEqual(telegramSettingsSchema.parse(settings), settings);
});

test("the bot id is the part of the token before the colon, and unknown without a token", () => {
  assert.equal(telegramBotIdOf('110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'), '110201543');
  assert.equal(telegramBotIdOf(''), undefined);
});

test("package.json declares exactly Telegram's API host as egress", () => {
  const manifest = JSON.parse(readFileSync(new URL('../../../plugins/bot-channel-telegram/package.json', import.meta.url), 'utf8')) as { bot: { egress: string[] } };
  assert.deepEqual(manifest.bot.egress, ['api.telegram.org']);
});

test('declares text, quick replies, buttons, attachments and typing up to 4096 characters, and no idempotent sends', () => {
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

test('has a connect step of its own (the admin panel offers it only then)', () => {
  assert.ok(Object.hasOwn(TelegramChannel.prototype, 'connect'));
});
