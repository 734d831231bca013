/**
 * A plugin acts only for the source the host's current call serves: its egress gets that
 * source's `x-egress` origins and its download links that source's files, whatever source id it
 * names. Outside any call (at import, in a timer after the call answered) it acts for none. The
 * hostile channel runs in its runner against the host's real egress and attachment services, each
 * source's `x-egress` origin a listener of its own.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { ChannelSource, EgressRequest, HostServices } from '@bot-ai/api';
import { AttachmentService, attachmentOptionsWithDefaults } from '../../host/attachments/attachment-service.ts';
import { ChannelEgress } from '../../host/egress/channel-egress.ts';
import { EgressClient } from '../../host/egress/egress-client.ts';
import { AppError } from '../../host/errors/app-error.ts';
import type { SourceRow } from '../../host/sources/source.ts';
import { echo, startListener, TEST_LIMITS, type Listener } from '../egress/egress-fixtures.ts';
import { assertRefused, attack, HOSTILE_PACKAGE, SOURCE, startChannel, type Channel, type Outcome } from './hostile-runner.ts';

const PUBLIC_URL = 'http://bot.test';
/** The hostile channel's settings as the host reads them: `api_url` is an endpoint setting. */
const SCHEMA = { type: 'object', properties: { api_url: { type: 'string', 'x-egress': true } } };

interface Host {
  channel: Channel;
  /** The source the test's calls serve (SOURCE, the id import-time code claims) and its neighbour of the same channel. */
  a: ChannelSource & { listener: Listener };
  b: ChannelSource & { listener: Listener };
  /** The source id the host handed its egress service with each request, by the request's path. */
  egressSources: Map<string, string | undefined>;
}

/** Sources A and B of the hostile channel, each with a listener as its `x-egress` origin, and the channel on the host's real services. */
async function startHost(t: TestContext): Promise<Host> {
  const [listenerA, listenerB] = await Promise.all([startListener(t, echo), startListener(t, echo)]);
  const rows = new Map<string, SourceRow>();
  const row = (id: string, ref: string, apiUrl: string): SourceRow => {
    const source = { id, ref, name: ref, channel: 'hostile', settings: { api_url: apiUrl }, egress_grants: ['api_url'], active: true, default_workflow_id: null, created_at: new Date(), updated_at: new Date() };
    rows.set(id, source);
    return source;
  };
  const a = row(SOURCE.id, 'ref-a', listenerA.origin);
  const b = row('source-b', 'ref-b', listenerB.origin);
  const find = async (id: string) => rows.get(id) ?? Promise.reject(new AppError('BOT_ERR_SOURCE_NOT_FOUND', `No source ${id}`));
  const client = new EgressClient({ limits: TEST_LIMITS });
  t.after(() => client.close());
  const egress = new ChannelEgress({
    client,
    channels: { get: (name) => (name === 'hostile' ? { egress: [], description: { settingsJsonSchema: SCHEMA } } : undefined) },
    sources: { get: find },
    countRefused: () => {},
    logger: { warn: () => {} },
  });
  const attachments = new AttachmentService({ get: find }, { now: () => new Date(), ...attachmentOptionsWithDefaults({ publicBaseUrl: PUBLIC_URL }) });
  const egressSources = new Map<string, string | undefined>();
  const hostServicesFor = (channelName: () => string | undefined): HostServices => {
    const fetch = egress.fetchFor(channelName);
    return {
      ...attachments.hostServicesFor(channelName),
      fetch: (request: EgressRequest) => {
        if (URL.canParse(request.url)) egressSources.set(new URL(request.url).pathname, request.sourceId);
        return fetch(request);
      },
    };
  };
  const channel = await startChannel(t, HOSTILE_PACKAGE, { hostServicesFor });
  const plain = (source: SourceRow) => ({ id: source.id, ref: source.ref, settings: source.settings, active: true });
  return { channel, a: { ...plain(a), listener: listenerA }, b: { ...plain(b), listener: listenerB }, egressSources };
}

function refusedWith(outcome: Outcome, what: string): string {
  assertRefused(outcome, what);
  return outcome.ok ? '' : (outcome.causeCode ?? outcome.code);
}

describe("a plugin's egress acts for the source of the host's current call", () => {
  for (const via of ['run-for-source', 'service']) {
    test(`during a call for source A, it reaches A's x-egress origin, and naming source B (${via}) does not reach B's`, async (t) => {
      const { channel, a, b, egressSources } = await startHost(t);
      const own = await attack(channel, { attack: 'egress-as', url: `${a.listener.origin}/own`, sourceId: a.id, via }, a);
      assert.deepEqual(own, { ok: true, value: `200 ${JSON.stringify({ method: 'POST', url: '/own', body: 'forged' })}` });
      assert.equal(egressSources.get('/own'), a.id);
      const outcome = await attack(channel, { attack: 'egress-as', url: `${b.listener.origin}/forged`, sourceId: b.id, via }, a);
      assert.equal(refusedWith(outcome, "reaching B's origin while serving A"), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
      assert.equal(b.listener.received.length, 0, "B's platform got a request");
      assert.equal(egressSources.get('/forged'), a.id, "the host acted for the call's source, not the one named");
    });
  }

  test("in a timer that fires after the call answered, even naming the call's own source, it gets no source's origins", async (t) => {
    const { channel, a, egressSources } = await startHost(t);
    const later = { attack: 'egress-as', url: `${a.listener.origin}/after-call`, sourceId: a.id, via: 'service' };
    assert.deepEqual(await attack(channel, { attack: 'after-call', key: 'egress-after', then: later }, a), { ok: true, value: 'scheduled' });
    const outcome = await attack(channel, { attack: 'outcome-of', key: 'egress-after' }, a);
    assert.equal(refusedWith(outcome, 'egress from a timer after its call'), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(a.listener.received.length, 0);
    assert.ok(egressSources.has('/after-call') && egressSources.get('/after-call') === undefined, 'the host passed no source');
  });

  test('at import time, claiming a source, it gets no source: the host passes none', async (t) => {
    const { channel, a, egressSources } = await startHost(t);
    refusedWith(await attack(channel, { attack: 'outcome-of', key: 'import-egress' }, a), 'egress at import time');
    assert.ok(egressSources.has('/import-time') && egressSources.get('/import-time') === undefined, 'the host passed no source');
    const outcome = await attack(channel, { attack: 'in-import-context', then: { attack: 'egress-as', url: `${a.listener.origin}/import-context`, sourceId: a.id, via: 'run-for-source' } }, a);
    assert.equal(refusedWith(outcome, "egress in the import's async context"), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(a.listener.received.length, 0);
  });
});

describe("a plugin's download links are only for the source of the host's current call", () => {
  test("during a call for source A, it gets A's link, and is refused B's", async (t) => {
    const { channel, a, b } = await startHost(t);
    const own = await attack(channel, { attack: 'attachment-url-as', sourceId: a.id, name: 'report.pdf' }, a);
    assert.equal(own.ok, true, JSON.stringify(own));
    assert.match(String(own.ok && own.value), new RegExp(`^${PUBLIC_URL}/api/webhook/${a.ref}/download/report\\.pdf\\?t=`));
    const other = await attack(channel, { attack: 'attachment-url-as', sourceId: b.id, name: 'report.pdf' }, a);
    assert.equal(refusedWith(other, "B's download link while serving A"), 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN');
  });

  test("outside any call (at import, in a timer after the call) it is refused even the call's own source's link", async (t) => {
    const { channel, a } = await startHost(t);
    const atImport = await attack(channel, { attack: 'outcome-of', key: 'import-attachment' }, a);
    assert.equal(refusedWith(atImport, 'a download link at import time'), 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN');
    const later = { attack: 'attachment-url-as', sourceId: a.id, name: 'report.pdf' };
    // Once the channel has described itself, too (at import its name is not known yet).
    const inImportContext = await attack(channel, { attack: 'in-import-context', then: later }, a);
    assert.equal(refusedWith(inImportContext, "a download link in the import's async context"), 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN');
    await attack(channel, { attack: 'after-call', key: 'attachment-after', then: later }, a);
    const afterCall = await attack(channel, { attack: 'outcome-of', key: 'attachment-after' }, a);
    assert.equal(refusedWith(afterCall, 'a download link after its call'), 'BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN');
  });
});
