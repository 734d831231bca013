import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, createSource, graphAnswers, PAGE_TOKEN, SEND_SETTINGS } from './messenger-test-kit.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

const WEBHOOK = 'https://bot.example.com/api/webhook/ref-1';
const SUBSCRIBE_PATH = '/v21.0/me/subscribed_apps?subscribed_fields=messages,messaging_postbacks';

test('subscribes the Page to messages and postbacks, and tells the operator the callback URL and verify token to enter', async () => {
  const { scope, received } = graphAnswers('POST', SUBSCRIBE_PATH, 200, { success: true });
  const result = await createChannel().connect(createSource({ ...SEND_SETTINGS, verify_token: 'verify-4c1e9b2a' }), { webhookUrl: WEBHOOK });
  assert.ok(scope.isDone());
  assert.equal(received[0]!.headers.get('authorization'), `Bearer ${PAGE_TOKEN}`);
  assert.equal(result.connected, true);
  assert.match(result.message, /subscribed/);
  assert.match(result.instructions ?? '', new RegExp(`Callback URL: ${WEBHOOK}`));
  assert.match(result.instructions ?? '', /Verify token: verify-4c1e9b2a/);
  assert.match(result.instructions ?? '', /App Dashboard/);
});

test('says to set a verify token first when the source has none', async () => {
  graphAnswers('POST', SUBSCRIBE_PATH, 200, { success: true });
  const result = await createChannel().connect(createSource(SEND_SETTINGS), { webhookUrl: WEBHOOK });
  assert.match(result.instructions ?? '', /Verify token: \(none yet: set this source's verify_token first/);
});

test('is not connected, naming the reason, when Meta refuses the token', async () => {
  graphAnswers('POST', SUBSCRIBE_PATH, 400, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
  const result = await createChannel().connect(createSource(SEND_SETTINGS), { webhookUrl: WEBHOOK });
  assert.equal(result.connected, false);
  assert.match(result.message, /HTTP 400.*Invalid OAuth access token/);
  assert.doesNotMatch(result.message, new RegExp(PAGE_TOKEN));
  assert.match(result.instructions ?? '', new RegExp(WEBHOOK));
});

test('is not connected when Meta answers without success: true', async () => {
  graphAnswers('POST', SUBSCRIBE_PATH, 200, { success: false });
  const result = await createChannel().connect(createSource(SEND_SETTINGS), { webhookUrl: WEBHOOK });
  assert.equal(result.connected, false);
});

test('is not connected, calling nothing, without a Page access token', async () => {
  const { scope } = graphAnswers('POST', SUBSCRIBE_PATH, 200, { success: true });
  const result = await createChannel().connect(createSource({}), { webhookUrl: WEBHOOK });
  assert.equal(result.connected, false);
  assert.match(result.message, /page_access_token/);
  assert.equal(scope.isDone(), false);
});
