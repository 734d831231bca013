import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitToCapabilities, MAX_PARTS, splitText } from '../../host/outbox/fit-to-capabilities.ts';

test('a text over maxTextLength is split at whitespace into messages within the limit, words intact', () => {
  const text = 'one two three four five six seven';
  const parts = splitText(text, 10);
  assert.deepEqual(parts, ['one two', 'three four', 'five six', 'seven']);
  assert.ok(parts.every((part) => part.length <= 10));
  assert.equal(parts.join(' '), text);
});

test('a word longer than the limit is cut hard; 0 means no limit', () => {
  assert.deepEqual(splitText('abcdefghij klm', 4), ['abcd', 'efgh', 'ij', 'klm']);
  assert.deepEqual(splitText('x'.repeat(5000), 0), ['x'.repeat(5000)]);
});

test('quick replies stay on the last part of a split message', () => {
  const envelope = { type: 'quickReply' as const, data: { text: 'aaaa bbbb cccc', quickReplies: [{ title: 'Yes', payload: 'YES' }] } };
  assert.deepEqual(fitToCapabilities(envelope, { quickReply: true, maxTextLength: 9 }), [
    { type: 'text', data: { text: 'aaaa bbbb' } },
    { type: 'quickReply', data: { text: 'cccc', quickReplies: [{ title: 'Yes', payload: 'YES' }] } },
  ]);
});

test('quick replies or buttons a channel cannot show degrade to their text', () => {
  const quick = { type: 'quickReply' as const, data: { text: 'Pick one', quickReplies: [{ title: 'A', payload: 'A' }] } };
  assert.deepEqual(fitToCapabilities(quick, { quickReply: false }), [{ type: 'text', data: { text: 'Pick one' } }]);
  const buttons = { type: 'buttons' as const, data: { text: 'Go', buttons: [{ type: 'postback' as const, title: 'Go', payload: 'GO' }] } };
  assert.deepEqual(fitToCapabilities(buttons, { buttons: false }), [{ type: 'text', data: { text: 'Go' } }]);
  assert.deepEqual(fitToCapabilities(quick, { quickReply: true }), [quick]);
});

test('a runaway text is cut after MAX_PARTS messages, the last one ending with an ellipsis', () => {
  const parts = splitText('word '.repeat(10_000), 100);
  assert.equal(parts.length, MAX_PARTS);
  assert.ok(parts.every((part) => part.length <= 100));
  assert.ok(parts.at(-1)!.endsWith('…'));
});
