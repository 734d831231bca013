import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADA_ID, botApiAnswers, createChannel, deliveredEvent } from './telegram-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

test("shows typing with sendChatAction { chat_id, action: 'typing' }", async () => {
  const { scope, received } = botApiAnswers('sendChatAction', 200, { ok: true, result: true });
  await createChannel().sendTypingIndicator(deliveredEvent('text-message.json'));
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { chat_id: ADA_ID, action: 'typing' });
});

test('shows typing in the group a group message came from', async () => {
  const { received } = botApiAnswers('sendChatAction', 200, { ok: true, result: true });
  await createChannel().sendTypingIndicator(deliveredEvent('group-text-message.json'));
  assert.deepEqual(received.body, { chat_id: -1001234567890, action: 'typing' });
});

test('typing is not paced: it takes no slot from the reply that follows', async () => {
  const channel = createChannel();
  const event = deliveredEvent('text-message.json');
  botApiAnswers('sendChatAction', 200, { ok: true, result: true });
  await channel.sendTypingIndicator(event);
  const started = performance.now();
  await channel.pacer.wait(`${event.getSourceId()}:${ADA_ID}`);
  assert.ok(performance.now() - started < 200);
});

test("a refused typing call fails with Telegram's status (the host logs it and carries on)", async () => {
  botApiAnswers('sendChatAction', 403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
  await assert.rejects(createChannel().sendTypingIndicator(deliveredEvent('text-message.json')), { code: 'BOT_ERR_CHANNEL_PLATFORM_STATUS', status: 403 });
});
