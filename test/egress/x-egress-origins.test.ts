import assert from 'node:assert/strict';
import { test } from 'node:test';
import { xEgressKeys, xEgressOrigins } from '../../host/egress/x-egress-origins.ts';

const schema = {
  type: 'object',
  properties: {
    api_url: { type: 'string', format: 'uri', 'x-egress': true },
    files_url: { type: 'string', 'x-egress': true },
    api_key: { type: 'string', 'ui:widget': 'password' },
    note: { type: 'string', 'x-egress': 'yes' },
  },
};

test('the settings marked "x-egress": true are the endpoints, nothing else', () => {
  assert.deepEqual(xEgressKeys(schema), ['api_url', 'files_url']);
  assert.deepEqual(xEgressKeys(undefined), []);
});

test("the origins are those of the source's stored endpoint values, each once", () => {
  const settings = { api_url: 'http://127.0.0.1:8080/api/', files_url: 'http://127.0.0.1:8080/files', api_key: 'https://key.example', note: 'https://note.example' };
  assert.deepEqual(xEgressOrigins(schema, settings, ['api_url', 'files_url']), ['http://127.0.0.1:8080']);
});

test('an endpoint counts only when the grants name it, and every one counts when the grants are null', () => {
  const settings = { api_url: 'http://127.0.0.1:8080/api', files_url: 'http://10.0.0.5/files', api_key: 'http://key.example', note: 'http://note.example' };
  assert.deepEqual(xEgressOrigins(schema, settings, ['files_url']), ['http://10.0.0.5']);
  assert.deepEqual(xEgressOrigins(schema, settings, []), []);
  assert.deepEqual(xEgressOrigins(schema, settings, ['api_key', 'note']), [], 'a grant of a setting the schema does not mark opens nothing');
  assert.deepEqual(xEgressOrigins(schema, settings, null), ['http://127.0.0.1:8080', 'http://10.0.0.5']);
});

const ignored: [string, unknown][] = [
  ['absent', undefined],
  ['not a string', 42],
  ['not a URL', 'platform.example/api'],
  ['another scheme', 'file:///etc/passwd'],
  ['with credentials', 'https://user:pw@platform.example/api'],
];
for (const [what, value] of ignored) {
  test(`an endpoint value ${what} opens no origin`, () => assert.deepEqual(xEgressOrigins(schema, { api_url: value }, ['api_url']), []));
}
