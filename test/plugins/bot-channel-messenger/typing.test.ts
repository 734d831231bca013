import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADA, createChannel, graphAnswers, PAGE_TOKEN, storedEvent } from './messenger-test-kit.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

test('shows typing with sender_action typing_on to the sender, with the Page token', async () => {
  const { scope, received } = graphAnswers('POST', '/v21.0/me/messages', 200, { recipient_id: ADA });
  await createChannel().sendTypingIndicator(storedEvent('text.json'));
  assert.ok(scope.isDone());
  assert.deepEqual(JSON.parse(received[0]!.body), { recipient: { id: ADA }, sender_action: 'typing_on' });
  assert.equal(received[0]!.headers.get('authorization'), `Bearer ${PAGE_TOKEN}`);
});

test('a refused typing call rejects with the status (the host neither waits for it nor retries it)', async () => {
  graphAnswers('POST', '/v21.0/me/messages', 400, { error: { message: '(#100) No matching user found', code: 100 } });
  await assert.rejects(createChannel().sendTypingIndicator(storedEvent('text.json')), { code: 'BOT_ERR_CHANNEL_PLATFORM_STATUS', status: 400 });
});
