/**
 * The host → channel calls typing, connect and messageAttachments, through ChannelCalls, in both
 * runtimes: a package channel's runner process and a built-in channel's thread pool. Each reaches
 * "the platform" through the SDK's fetch, which the host's services here record: the request must
 * name the source the call serves.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ChannelSource, EgressRequest, PlainInboundEvent } from '@bot-ai/api';
import { sandboxLoader, type LoadedSandbox } from '../../host/channels/load-channel-in-sandbox.ts';
import type { ChannelOrigin } from '../../host/channels/discovery/scan-channel-files.ts';
import { recordingLogger, rejectsWithCode } from './builtin-pool/fixture-pool.ts';
import { RELAXED_LIMITS } from '../isolation/hostile-runner.ts';

const ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/platform-calls/node_modules', import.meta.url));
const LIMITS = { callTimeoutMs: 10_000, startTimeoutMs: 30_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 8, idleTimeoutMs: 60_000 };
const SOURCE: ChannelSource = { id: 'source-1', ref: 'ref-1', settings: { api_url: 'https://platform.test', token: 'tok-123456789' }, active: true };

function message(text: string, extra: Partial<PlainInboundEvent> = {}): PlainInboundEvent {
  return {
    kind: 'message',
    channelName: 'platform_calls',
    rawEvent: {},
    channelAttributes: {},
    occurredAt: '2026-01-01T00:00:00.000Z',
    eventId: 'e1',
    senderForeignId: 'user-7',
    message: { type: 'text', data: { text } },
    ...extra,
  };
}

const ATTACHMENT_EVENT = message('', { message: { type: 'attachment', data: { attachments: [{ kind: 'file', platformId: 'f-1', name: 'a.pdf' }, { kind: 'image', url: 'https://cdn.test/p.jpg', mimeType: 'image/jpeg' }] } } });

interface Started {
  calls: LoadedSandbox;
  requests: EgressRequest[];
}

/** Starts a fixture channel as the host would for `origin`; its fetch answers `{ path }` and is recorded. */
async function start(packageName: string, origin: ChannelOrigin): Promise<Started> {
  const requests: EgressRequest[] = [];
  const file = `${ROOT}/${packageName}/dist/index.channel.js`;
  const loaded = await sandboxLoader({
    ...LIMITS,
    isolation: { mode: 'auto', limits: RELAXED_LIMITS, restartDelay: { initialMs: 100, maxMs: 2_000 } },
    hostServicesFor: () => ({
      getAttachmentPublicUrl: async () => '',
      fetch: async (request) => {
        requests.push(request);
        const body = new TextEncoder().encode(JSON.stringify({ path: 'doc-1.pdf' }));
        return { status: 200, statusText: 'OK', headers: [['content-type', 'application/json']], body, url: request.url, redirected: false };
      },
    }),
    logger: recordingLogger(),
  })({ file, realFile: file, origin });
  return { calls: loaded, requests };
}

const bodyOf = (request: EgressRequest | undefined) => JSON.parse(new TextDecoder().decode(request?.body));

for (const origin of ['package', 'builtin'] as const) {
  describe(`in a ${origin === 'package' ? "package channel's runner" : "built-in channel's thread pool"}`, () => {
    let own: Started;
    let quiet: Started;
    before(async () => {
      [own, quiet] = await Promise.all([start('bot-channel-platform-calls', origin), start('bot-channel-quiet', origin)]);
    });
    after(() => Promise.all([own?.calls.close(), quiet?.calls.close()]));
    beforeEach(() => {
      own.requests.length = 0;
      quiet.requests.length = 0;
    });

    test('the description says whether the handler overrides connect()', () => {
      assert.equal(own.calls.description.connectable, true);
      assert.equal(quiet.calls.description.connectable, false);
    });

    test("typing calls sendTypingIndicator with the event bound to its source, whose fetch serves that source", async () => {
      const { calls, requests } = own;
      assert.equal(await calls.sandbox.typing(message('hi'), SOURCE), undefined);
      assert.equal(requests.length, 1);
      assert.equal(requests[0]!.url, 'https://platform.test/typing');
      assert.equal(requests[0]!.sourceId, SOURCE.id);
      assert.deepEqual(bodyOf(requests[0]), { to: 'user-7', source: SOURCE.id });
    });

    test("a typing indicator that throws rejects with BOT_ERR_PLUGIN_THREW, the plugin's code as the cause", async () => {
      const { calls } = own;
      const error = await rejectsWithCode(calls.sandbox.typing(message('typing-fails'), SOURCE), 'BOT_ERR_PLUGIN_THREW');
      assert.equal((error.cause as { code?: string }).code, 'PROBE_ERR_TYPING');
    });

    test('connect passes the webhook URL and answers the validated result, unknown keys dropped', async () => {
      const { calls, requests } = own;
      const result = await calls.sandbox.connect(SOURCE, { webhookUrl: 'https://bot.test/api/webhook/ref-1' });
      assert.deepEqual(result, { connected: true, message: 'Webhook set to https://bot.test/api/webhook/ref-1', instructions: 'name: bot\nurl: here' });
      assert.equal(requests[0]!.url, 'https://platform.test/setWebhook');
      assert.equal(requests[0]!.sourceId, SOURCE.id);
      assert.deepEqual(bodyOf(requests[0]), { url: 'https://bot.test/api/webhook/ref-1' });
    });

    test('a malformed connect answer is refused with BOT_ERR_PLUGIN_INVALID_RESULT naming the contract', async () => {
      const { calls } = own;
      const error = await rejectsWithCode(calls.sandbox.connect({ ...SOURCE, settings: { mode: 'invalid' } }, { webhookUrl: 'https://bot.test/w' }), 'BOT_ERR_PLUGIN_INVALID_RESULT');
      assert.match(error.message, /connect\(\) must return \{ connected: boolean, message: string, instructions\?: string \}/);
    });

    test("a channel without a connect step rejects with the SDK's BOT_ERR_CHANNEL_CONNECT_UNSUPPORTED as the cause", async () => {
      const { calls } = quiet;
      const error = await rejectsWithCode(calls.sandbox.connect(SOURCE, { webhookUrl: 'https://bot.test/w' }), 'BOT_ERR_PLUGIN_THREW');
      assert.equal((error.cause as { code?: string }).code, 'BOT_ERR_CHANNEL_CONNECT_UNSUPPORTED');
    });

    test("messageAttachments answers the plugin's validated references, looked up through the source's fetch", async () => {
      const { calls, requests } = own;
      const refs = await calls.sandbox.messageAttachments(ATTACHMENT_EVENT, SOURCE);
      // The second attachment has no name: the key is left out, not sent as undefined.
      assert.deepEqual(refs, [
        { url: 'https://platform.test/files/doc-1.pdf', name: 'a.pdf', headers: { authorization: 'Bearer file-token' } },
        { url: 'https://platform.test/files/doc-1.pdf', headers: { authorization: 'Bearer file-token' } },
      ]);
      assert.deepEqual(requests.map((request) => [request.url, request.sourceId]), [
        ['https://platform.test/getFile?id=f-1', SOURCE.id],
        ['https://platform.test/getFile?id=undefined', SOURCE.id],
      ]);
    });

    test("the SDK's default messageAttachments answers each attachment's own URL", async () => {
      const { calls } = quiet;
      assert.deepEqual(await calls.sandbox.messageAttachments(ATTACHMENT_EVENT, SOURCE), [{ url: 'https://cdn.test/p.jpg', mimeType: 'image/jpeg' }]);
    });

    test('a reference that is not an http(s) URL is refused with BOT_ERR_PLUGIN_INVALID_RESULT', async () => {
      const { calls } = own;
      const error = await rejectsWithCode(calls.sandbox.messageAttachments(message('bad-refs'), SOURCE), 'BOT_ERR_PLUGIN_INVALID_RESULT');
      assert.match(error.message, /getMessageAttachments\(\) must return an array of \{ url, name\?, mimeType\?, headers\? \}/);
      assert.match(error.message, /http\(s\) URL/);
    });
  });
}
