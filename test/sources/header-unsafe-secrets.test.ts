import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { headerUnsafeSecrets } from '../../host/sources/header-unsafe-secrets.ts';

const SCHEMA = {
  type: 'object',
  properties: {
    api_key: { type: 'string', 'ui:widget': 'password' },
    greeting: { type: 'string' },
  },
};

describe('headerUnsafeSecrets', () => {
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ['accepts a visible-ASCII token', { api_key: 'abc-123_XYZ.~+/=' }, undefined],
    ['accepts an empty secret (not set yet)', { api_key: '' }, undefined],
    ['ignores a secret that is not a string (the schema reports it)', { api_key: 42 }, undefined],
    ['ignores settings that are not secrets', { greeting: 'Grüß dich …' }, undefined],
    ['refuses a pasted ellipsis, naming it', { api_key: 'abc…' }, 'U+2026 at character 4'],
    ['refuses a space', { api_key: 'abc def' }, 'U+0020 at character 4'],
    ['refuses a trailing newline', { api_key: 'abc\n' }, 'U+000A at character 4'],
    ['refuses Latin-1 letters too', { api_key: 'clé' }, 'U+00E9 at character 3'],
    ['counts characters, not UTF-16 units', { api_key: '😀x ' }, 'U+1F600 at character 1'],
  ];
  for (const [name, settings, expected] of cases) {
    test(name, () => {
      const problems = headerUnsafeSecrets(SCHEMA, settings);
      if (expected === undefined) return assert.deepEqual(problems, []);
      assert.equal(problems.length, 1);
      assert.equal(problems[0]!.path, '/api_key');
      assert.match(problems[0]!.message, /^must be visible ASCII: it is sent in an HTTP header/);
      assert.ok(problems[0]!.message.includes(expected), problems[0]!.message);
    });
  }
});
