import assert from 'node:assert/strict';
import { test } from 'node:test';
import { safeUrl } from '../../host/admin/src/components/safe-url.ts';
import { botMessageView } from '../../host/admin/src/pages/workflows/test-chat/bot-message-view.ts';

// A workflow's author writes the URLs of its buttons and files, and the envelope schema (z.url())
// takes any scheme: the test chat must not turn them into links the panel follows.
const HOSTILE = ['javascript:alert(document.cookie)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x'];

test('a url button with a scheme other than http(s) is shown as a title, with no link and nothing to send', () => {
  for (const url of HOSTILE) {
    const view = botMessageView({ type: 'buttons', data: { text: 'Go', buttons: [{ type: 'url', title: 'Open', url }] } });
    assert.deepEqual(view.chips, [{ title: 'Open' }], url);
    const card = botMessageView({ type: 'carousel', data: { elements: [{ title: 'Card', buttons: [{ type: 'url', title: 'Open', url }] }] } });
    assert.deepEqual(card.cards[0]!.chips, [{ title: 'Open' }], url);
  }
  const kept = botMessageView({ type: 'buttons', data: { text: 'Go', buttons: [{ type: 'url', title: 'Docs', url: 'https://example.com/docs' }] } });
  assert.deepEqual(kept.chips, [{ title: 'Docs', url: 'https://example.com/docs' }]);
});

test('an attachment whose url is not http(s) is not offered as a link', () => {
  for (const url of HOSTILE) {
    const view = botMessageView({ type: 'attachment', data: { text: 'A file', attachment: { kind: 'file', url, name: 'x' } } });
    assert.equal(view.attachment, undefined, url);
    assert.equal(view.text, 'A file');
  }
  assert.equal(botMessageView({ type: 'attachment', data: { attachment: { kind: 'image', url: 'https://example.com/a.png' } } }).attachment?.url, 'https://example.com/a.png');
});

test('safeUrl refuses every scheme but http(s), however it is written', () => {
  for (const url of HOSTILE) assert.equal(safeUrl(url), null, url);
  assert.equal(safeUrl('HTTPS://example.com'), 'HTTPS://example.com');
});
