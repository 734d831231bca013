import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callSourceArgs } from '../../../host/channels/runner/call-source-args.ts';
import { isRunnerMessage } from '../../../host/channels/runner/runner-protocol.ts';

const request = { url: 'https://api.example.test/x', method: 'GET', headers: [] };

describe("a runner's service request acts for the source of its call, never the one it names", () => {
  test("an egress request gets the call's source in place of the one the plugin named", () => {
    assert.deepEqual(callSourceArgs('fetch', [{ ...request, sourceId: 'source-b' }], 'source-a'), [{ ...request, sourceId: 'source-a' }]);
  });

  test('an egress request outside any call loses the source it named', () => {
    assert.deepEqual(callSourceArgs('fetch', [{ ...request, sourceId: 'source-a' }], undefined), [request]);
  });

  test("a download link is given for the call's own source only, and never outside a call", () => {
    assert.deepEqual(callSourceArgs('getAttachmentPublicUrl', ['source-a', 'a.pdf'], 'source-a'), ['source-a', 'a.pdf']);
    assert.throws(() => callSourceArgs('getAttachmentPublicUrl', ['source-b', 'a.pdf'], 'source-a'), { code: 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN' });
    assert.throws(() => callSourceArgs('getAttachmentPublicUrl', ['source-a', 'a.pdf'], undefined), { code: 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN' });
  });

  test('a service request naming its call by anything but an integer id is a message of no known shape', () => {
    const service = { type: 'runner.service', id: 1, method: 'fetch', args: [request] };
    assert.equal(isRunnerMessage(service), true, 'outside any call, it names none');
    assert.equal(isRunnerMessage({ ...service, call: 7 }), true);
    for (const call of ['7', 1.5, null, { id: 7 }]) assert.equal(isRunnerMessage({ ...service, call }), false, JSON.stringify(call));
  });
});
