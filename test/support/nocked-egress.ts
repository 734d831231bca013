import { after, afterEach, before } from 'node:test';
import { directFetchService, installHostServices } from '@bot-ai/api';
import nock from 'nock';

/**
 * For a channel's own tests, outside a host: registers the suite's hooks so that the channel's
 * `fetch` goes straight out through the global fetch, which nock intercepts (nothing reaches the
 * network), with none of the host's egress rules; each test's interceptors are cleaned after it.
 * @example useNockedEgress(); nock('https://api.telegram.org').post(/sendMessage$/).reply(200, { ok: true, result: { message_id: 1 } });
 */
export function useNockedEgress(): void {
  before(() => {
    nock.disableNetConnect();
    installDirectEgress();
  });
  afterEach(() => nock.cleanAll());
  after(() => {
    nock.enableNetConnect();
    installHostServices(undefined);
  });
}

/**
 * Stands in for the host outside one: the channel's fetch goes straight out through the global
 * fetch (which nock intercepts), with none of the host's egress rules. Returns the undo.
 * @example const undo = installDirectEgress(); try { await channel.doSendMessage(…); } finally { undo(); }
 */
export function installDirectEgress(): () => void {
  installHostServices({ getAttachmentPublicUrl: async (_sourceId, ref) => `https://host.test/download/${ref}`, fetch: directFetchService });
  return () => installHostServices(undefined);
}
