import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpChannelHandler, isInjectable, z } from '@bot-ai/api';
import SampleChannel, { sampleSettingsSchema } from 'bot-channel-sample';
import SampleChannelEntry from 'bot-channel-sample/index.channel';

test('the index.channel entry exports an injectable HTTP handler named sample', () => {
  assert.equal(SampleChannelEntry, SampleChannel);
  assert.ok(isInjectable(SampleChannelEntry));
  const channel = new SampleChannelEntry();
  assert.ok(channel instanceof HttpChannelHandler);
  assert.equal(channel.name, 'sample');
  assert.equal(channel.settingsSchema, sampleSettingsSchema);
});

test('the settings schema converts to JSON Schema with titles, descriptions and password widgets', () => {
  const json = z.toJSONSchema(sampleSettingsSchema, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
  assert.deepEqual(Object.keys(json.properties).sort(), ['api_key', 'api_url', 'tenant_id', 'verify_token', 'webhook_secret']);
  for (const [name, property] of Object.entries(json.properties)) {
    assert.equal(typeof property.title, 'string', `${name} has a title`);
    assert.equal(typeof property.description, 'string', `${name} has a description`);
  }
  const passwords = Object.keys(json.properties).filter((name) => json.properties[name]!['ui:widget'] === 'password');
  assert.deepEqual(passwords.sort(), ['api_key', 'verify_token', 'webhook_secret']);
  assert.equal(json.properties.api_url!.format, 'uri');
  assert.equal(json.properties.api_url!.pattern, '^https?://');
});

test("api_url is the one setting marked x-egress: its origin is where the host lets the channel's fetch go", () => {
  const json = z.toJSONSchema(sampleSettingsSchema, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
  const endpoints = Object.keys(json.properties).filter((name) => json.properties[name]!['x-egress'] === true);
  assert.deepEqual(endpoints, ['api_url']);
});

test('the settings default to the public API URL and empty secrets', () => {
  assert.deepEqual(sampleSettingsSchema.parse({}), {
    api_url: 'https://platform.example/api',
    api_key: '',
    verify_token: '',
    webhook_secret: '',
    tenant_id: '',
  });
});

const badUrls = ['not a url', 'ftp://platform.example/api', 'javascript:alert(1)'];
for (const api_url of badUrls) {
  test(`the settings reject the api_url ${JSON.stringify(api_url)}`, () => {
    assert.equal(sampleSettingsSchema.safeParse({ api_url }).success, false);
  });
}
