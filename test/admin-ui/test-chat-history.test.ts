import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestRun } from '../../host/admin/src/api/api-types.ts';
import { botMessageView } from '../../host/admin/src/pages/workflows/test-chat/bot-message-view.ts';
import { chatHistory, MAX_HISTORY_ENTRIES, MAX_HISTORY_TEXT } from '../../host/admin/src/pages/workflows/test-chat/chat-history.ts';
import type { ChatTurn } from '../../host/admin/src/pages/workflows/test-chat/chat-turn-types.ts';
import { MAX_TEST_HISTORY_ENTRIES, MAX_TEST_HISTORY_TEXT } from '../../host/workflows/test-run-history.ts';

const ranWith = (messages: Record<string, unknown>[]) => ({ messages }) as unknown as TestRun;
const turn = (id: number, text: string, messages: Record<string, unknown>[] | undefined): ChatTurn => ({
  id,
  input: { message_type: 'text', text },
  ran: 'v1',
  ...(messages ? { run: ranWith(messages) } : { error: 'refused' }),
});

test('the chat sends the turns that ran as history: what was said, then what the bot answered', () => {
  const turns = [
    turn(1, 'my name is Ada', [{ type: 'quickReply', data: { text: 'Hello Ada!', quickReplies: [{ title: 'More', payload: 'MORE' }] } }]),
    turn(2, 'broken draft', undefined),
    turn(3, 'More', [{ type: 'text', data: { text: 'More for Ada' } }, { type: 'text', data: { text: 'Bye' } }]),
  ];
  assert.deepEqual(chatHistory(turns), [
    { role: 'user', text: 'my name is Ada' },
    { role: 'assistant', text: 'Hello Ada!' },
    { role: 'user', text: 'More' },
    { role: 'assistant', text: 'More for Ada' },
    { role: 'assistant', text: 'Bye' },
  ]);
});

test("a long chat keeps within the server's bounds: the newest entries, each text cut", () => {
  assert.equal(MAX_HISTORY_ENTRIES, MAX_TEST_HISTORY_ENTRIES);
  assert.equal(MAX_HISTORY_TEXT, MAX_TEST_HISTORY_TEXT);
  const turns = Array.from({ length: 40 }, (_, index) => turn(index, `turn ${index} ${'x'.repeat(MAX_HISTORY_TEXT)}`, [{ type: 'text', data: { text: `answer ${index}` } }]));
  const history = chatHistory(turns);
  assert.equal(history.length, MAX_HISTORY_ENTRIES);
  assert.deepEqual(history.at(-1), { role: 'assistant', text: 'answer 39' });
  assert.ok(history.every((entry) => entry.text.length <= MAX_HISTORY_TEXT));
});

test('buttons become chips: a postback sends its payload, a link opens its URL; cards keep theirs', () => {
  const view = botMessageView({
    type: 'buttons',
    data: { text: 'Pick', buttons: [{ type: 'postback', title: 'Yes', payload: 'YES' }, { type: 'url', title: 'Site', url: 'https://example.com/' }] },
  });
  assert.deepEqual(view, { text: 'Pick', chips: [{ title: 'Yes', payload: 'YES' }, { title: 'Site', url: 'https://example.com/' }], cards: [] });
  const carousel = botMessageView({ type: 'carousel', data: { elements: [{ title: 'Tea', buttons: [{ type: 'postback', title: 'Buy', payload: 'BUY_TEA' }] }] } });
  assert.deepEqual(carousel.cards, [{ title: 'Tea', chips: [{ title: 'Buy', payload: 'BUY_TEA' }] }]);
});
