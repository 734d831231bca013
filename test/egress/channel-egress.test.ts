import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { EgressRequest } from '@bot-ai/api';
import { ChannelEgress, type EgressSource, type EgressSources } from '../../host/egress/channel-egress.ts';
import { echo, rejectsWithCode, startClient, startListener } from './egress-fixtures.ts';

const SCHEMA = { type: 'object', properties: { api_url: { type: 'string', 'x-egress': true }, api_key: { type: 'string' } } };
const SOURCE_ID = '0c6b1f4e-2d7a-4e59-8b3c-1a2b3c4d5e6f';

interface Harness {
  fetch: (request: EgressRequest) => Promise<unknown>;
  refused: [string, string][];
  logged: Record<string, unknown>[];
  sourceQueries: string[];
}

/** The `sample` channel's egress service, with one source per entry of `sources` (by id). */
function harness(t: TestContext, options: { channelName?: string; sources?: Record<string, EgressSource>; schema?: Record<string, unknown> } = {}): Harness {
  const refused: [string, string][] = [];
  const logged: Record<string, unknown>[] = [];
  const sourceQueries: string[] = [];
  const sources: EgressSources = {
    get: async (id) => {
      sourceQueries.push(id);
      const source = options.sources?.[id];
      if (!source) throw Object.assign(new Error('no such source'), { code: 'BOT_ERR_SOURCE_NOT_FOUND' });
      return source;
    },
  };
  const egress = new ChannelEgress({
    client: startClient(t),
    channels: { get: (name) => (name === 'sample' ? { egress: [], description: { settingsJsonSchema: options.schema ?? SCHEMA } } : undefined) },
    sources,
    countRefused: (channel, code) => refused.push([channel, code]),
    logger: { warn: (fields) => logged.push(fields) },
  });
  const channelName = 'channelName' in options ? options.channelName : 'sample';
  return { fetch: egress.fetchFor(() => channelName), refused, logged, sourceQueries };
}

describe("a channel's fetch service", () => {
  test("reaches the x-egress origin of a source of its own channel", async (t) => {
    const listener = await startListener(t, echo);
    const { fetch } = harness(t, { sources: { [SOURCE_ID]: { channel: 'sample', settings: { api_url: `${listener.origin}/api` }, egress_grants: ['api_url'] } } });
    await fetch({ url: `${listener.origin}/api/messages`, method: 'GET', headers: [], sourceId: SOURCE_ID });
    assert.equal(listener.received.length, 1);
  });

  test("takes an x-egress origin only when the source's grants name its setting, or its grants are NULL (saved before grants were recorded)", async (t) => {
    const listener = await startListener(t, echo);
    const request = { url: `${listener.origin}/api/messages`, method: 'GET', headers: [], sourceId: SOURCE_ID } as EgressRequest;
    const withGrants = (egress_grants: string[] | null) => harness(t, { sources: { [SOURCE_ID]: { channel: 'sample', settings: { api_url: listener.origin }, egress_grants } } });
    await rejectsWithCode(withGrants([]).fetch(request), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    await rejectsWithCode(withGrants(['api_key']).fetch(request), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(listener.received.length, 0);
    await withGrants(null).fetch(request);
    assert.equal(listener.received.length, 1);
  });

  test("takes nothing from a source of another channel, an unknown one, or none", async (t) => {
    const listener = await startListener(t, echo);
    const foreign = { [SOURCE_ID]: { channel: 'other', settings: { api_url: listener.origin }, egress_grants: ['api_url'] } };
    const request = { url: `${listener.origin}/`, method: 'GET', headers: [] } as EgressRequest;
    await rejectsWithCode(harness(t, { sources: foreign }).fetch({ ...request, sourceId: SOURCE_ID }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    await rejectsWithCode(harness(t).fetch({ ...request, sourceId: SOURCE_ID }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    await rejectsWithCode(harness(t).fetch(request), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(listener.received.length, 0);
  });

  test('allows nothing before the plugin has said which channel it is', async (t) => {
    const listener = await startListener(t, echo);
    const { fetch } = harness(t, { channelName: undefined, sources: { [SOURCE_ID]: { channel: 'sample', settings: { api_url: listener.origin }, egress_grants: ['api_url'] } } });
    await rejectsWithCode(fetch({ url: `${listener.origin}/`, method: 'GET', headers: [], sourceId: SOURCE_ID }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
  });

  test('reads no source for a channel that marks no setting x-egress', async (t) => {
    const { fetch, sourceQueries } = harness(t, { schema: { type: 'object', properties: { api_key: { type: 'string' } } } });
    await rejectsWithCode(fetch({ url: 'https://api.example.test/', method: 'GET', headers: [], sourceId: SOURCE_ID }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.deepEqual(sourceQueries, []);
  });

  test('counts each refusal by channel and code, and logs the origin without the path', async (t) => {
    const { fetch, refused, logged } = harness(t);
    await rejectsWithCode(fetch({ url: 'https://elsewhere.example/bot123:SECRET/send', method: 'GET', headers: [] }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    await rejectsWithCode(fetch({ url: 'file:///etc/passwd', method: 'GET', headers: [] }), 'BOT_ERR_EGRESS_BAD_URL');
    assert.deepEqual(refused, [['sample', 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED'], ['sample', 'BOT_ERR_EGRESS_BAD_URL']]);
    assert.deepEqual(logged, [{ channel: 'sample', code: 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED', origin: 'https://elsewhere.example' }]);
    assert.doesNotMatch(JSON.stringify(logged), /SECRET/);
  });

  test('refusal lines are at most 20 a second per channel, the rest counted in one line; the metric counts every refusal', async (t) => {
    const { fetch, refused, logged } = harness(t);
    for (let sent = 0; sent < 200; sent++) await rejectsWithCode(fetch({ url: 'https://elsewhere.example/x', method: 'GET', headers: [] }), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(refused.length, 200);
    const lines = logged.filter((fields) => fields.code === 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.ok(lines.length >= 20 && lines.length < 200, `${lines.length} refusal lines`);
    // The count of what was dropped comes once the second is over.
    for (const deadline = Date.now() + 3_000; !logged.some((fields) => typeof fields.dropped === 'number'); ) {
      assert.ok(Date.now() < deadline, 'the dropped lines were reported');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const dropped = logged.reduce((sum, fields) => sum + (typeof fields.dropped === 'number' ? fields.dropped : 0), 0);
    assert.equal(lines.length + dropped, 200);
  });
});
