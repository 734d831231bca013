import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bindDefinitionPlaceholders } from '../../../host/workflows/document/bind-definition-placeholders.ts';

const ID = '11111111-1111-4111-8111-111111111111';

test('binds memory defs named by slug and leaves every other character as written', () => {
  const text = [
    '# keep this comment',
    'defs:',
    '  profile:',
    '    kind: memory',
    "    settings: { definition_id: 'profile' }  # and this one",
    '  visit:',
    '    kind: memory',
    '    settings:',
    '      definition_id: visit',
    '  say:',
    '    kind: task',
    '    action: send_text_message',
    '    inputs: { text: profile }',
    'flow: [{ do: say }]',
    '',
  ].join('\n');
  const bound = bindDefinitionPlaceholders(text, new Map([['profile', ID]]));
  assert.equal(bound, text.replace("{ definition_id: 'profile' }", `{ definition_id: ${ID} }`));
});

test('text that is not a workflow comes back unchanged', () => {
  for (const text of ['', 'just text', 'defs: [1, 2]', 'a: [unclosed']) {
    assert.equal(bindDefinitionPlaceholders(text, new Map([['profile', ID]])), text);
  }
});
