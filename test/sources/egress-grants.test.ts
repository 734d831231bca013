import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { egressGrantsOnCreate, egressGrantsOnPatch } from '../../host/sources/egress-grants.ts';

const SCHEMA = {
  type: 'object',
  properties: {
    api_url: { type: 'string', 'x-egress': true },
    files_url: { type: 'string', 'x-egress': true },
    callback_url: { type: 'string', 'x-egress': true, 'ui:widget': 'password' },
    note: { type: 'string' },
  },
};
const SECRETS = ['callback_url'];
const API = 'http://10.0.0.5/api';

describe('the egress grants of a new source', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string[]][] = [
    ['grants each x-egress setting the operator gave', { api_url: API, files_url: API }, { api_url: API, files_url: API }, ['api_url', 'files_url']],
    ['grants none left out (a default of an x-egress setting is not even stored)', {}, {}, []],
    ['grants none for a setting the schema does not mark, whatever its value', { note: API }, { note: API }, []],
  ];
  for (const [what, given, saved, grants] of cases) {
    test(what, () => assert.deepEqual(egressGrantsOnCreate(SCHEMA, given, saved), grants));
  }
});

describe('the egress grants after a PATCH of settings', () => {
  const stored = { api_url: API, files_url: 'http://10.0.0.6', callback_url: 'http://10.0.0.7/hook', note: 'n' };
  const granted = { settings: stored, egress_grants: ['api_url'] };
  const patched = (patch: Record<string, unknown>, previous: { settings: Record<string, unknown>; egress_grants: string[] | null } = granted) => {
    const saved = { ...stored };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete saved[key as keyof typeof saved];
      else if (value !== '********') Object.assign(saved, { [key]: value });
    }
    return egressGrantsOnPatch(SCHEMA, patch, SECRETS, saved, previous);
  };

  test('grants an x-egress setting the patch gives a value, even the value already stored', () => {
    assert.deepEqual(patched({ files_url: 'http://10.0.0.8' }), ['api_url', 'files_url']);
    assert.deepEqual(patched({ files_url: stored.files_url }), ['api_url', 'files_url']);
  });

  test('keeps the grant of a setting the patch leaves untouched, and grants none it had not', () => {
    assert.deepEqual(patched({ note: 'changed' }), ['api_url']);
    assert.deepEqual(patched({}), ['api_url']);
  });

  test('takes the grant of a setting sent as null away', () => {
    assert.deepEqual(patched({ api_url: null }), []);
  });

  test("grants no secret x-egress setting whose mask is sent back: the operator did not see, let alone give, its value", () => {
    assert.deepEqual(patched({ callback_url: '********' }), ['api_url']);
    assert.deepEqual(patched({ callback_url: '********' }, { settings: stored, egress_grants: ['callback_url'] }), ['callback_url'], 'a grant it had is kept');
  });

  test('drops the grant of an untouched setting whose saved value is not the one granted', () => {
    const saved = { ...stored, api_url: 'http://10.0.0.9' };
    assert.deepEqual(egressGrantsOnPatch(SCHEMA, { note: 'n2' }, SECRETS, saved, granted), []);
  });

  test('a source saved before grants were recorded (NULL) holds a grant for each setting marked now, which the patch records', () => {
    assert.deepEqual(patched({ note: 'changed' }, { settings: stored, egress_grants: null }), ['api_url', 'callback_url', 'files_url']);
    assert.deepEqual(patched({ files_url: null }, { settings: stored, egress_grants: null }), ['api_url', 'callback_url']);
  });
});
