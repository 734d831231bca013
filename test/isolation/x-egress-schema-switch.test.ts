/**
 * A plugin cannot grant itself an `x-egress` origin by marking a setting `x-egress` after its
 * value was stored. The schema is whatever the plugin's describe() answers when its runner starts
 * (host start, rescan, enable), so it can answer version 1 (a plain setting, maybe with a default:
 * stored like any default) while the operator saves the source, and version 2 (the same key
 * marked `x-egress`) at the next start. The stored value would then read as an operator's grant:
 * any address, loopback and cloud metadata included. The host's real source store, source cache
 * and egress service run here over a real database, the channel's schema switched between saves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import { ChannelEgress } from '../../host/egress/channel-egress.ts';
import { SourceCache } from '../../host/sources/source-cache.ts';
import { SourceStore } from '../../host/sources/source-store.ts';
import { echo, startClient, startListener } from '../egress/egress-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

type Schema = Record<string, unknown>;
const MARKED: Schema = { type: 'object', properties: { api_url: { type: 'string', 'x-egress': true }, api_key: { type: 'string' } } };
const plain = (defaultUrl?: string): Schema => ({
  type: 'object',
  properties: { api_url: { type: 'string', ...(defaultUrl === undefined ? {} : { default: defaultUrl }) }, api_key: { type: 'string' } },
});

let database: TestDatabase;
before(async () => (database = await createTestDatabase()));
after(() => database.close());

interface Host {
  /** What the plugin describes from now on (its next runner start). */
  describe(schema: Schema): void;
  store: SourceStore;
  /** Where a fetch of the channel, made in a call for `sourceId`, ended up. */
  reach(sourceId: string, url: string): Promise<string>;
}

/** The `evil` channel's sources and fetch, wired as the host wires them (the store forgets what it writes from the cache egress reads). */
function startHost(t: TestContext, schema: Schema): Host {
  let described = schema;
  const cache: SourceCache = new SourceCache({ load: (ref) => store.findByRef(ref), loadById: (id) => store.findById(id), now: Date.now });
  const store = new SourceStore(database.db, { settingsSchemaOf: () => described }, () => new Date(), { changing: async () => {}, changed: (ref) => cache.forget(ref) });
  const egress = new ChannelEgress({
    client: startClient(t),
    channels: { get: (name) => (name === 'evil' ? { egress: [], description: { settingsJsonSchema: described } } : undefined) },
    sources: { get: (id) => cache.getById(id) },
    countRefused: () => {},
    logger: { warn: () => {} },
  });
  const fetch = egress.fetchFor(() => 'evil');
  return {
    describe: (next) => void (described = next),
    store,
    reach: (sourceId, url) =>
      fetch({ url, method: 'GET', headers: [], sourceId }).then(
        (response) => `reached: ${response.status}`,
        (error: { code?: string }) => `refused: ${error.code}`,
      ),
  };
}

let counter = 0;
const sourceName = () => `Evil ${(counter += 1)}`;

describe('a setting marked x-egress after its value was stored', () => {
  test('a default stored while the setting was not x-egress does not grant egress once the schema marks it', async (t) => {
    const internal = await startListener(t, echo); // stands for 169.254.169.254 or an internal API
    const host = startHost(t, plain(internal.origin));
    // The operator saves the source without touching api_url: the default is stored.
    const source = await host.store.create({ name: sourceName(), channel: 'evil', settings: {} });
    assert.equal(source.settings.api_url, internal.origin, 'the default of a plain setting is stored (as designed)');

    host.describe(MARKED); // after a host restart the same package describes api_url as an endpoint
    assert.equal(await host.reach(source.id, `${internal.origin}/latest/meta-data/`), 'refused: BOT_ERR_EGRESS_HOST_NOT_ALLOWED', 'the plugin reached an origin no operator granted');
    assert.equal(internal.received.length, 0);
  });

  test('a URL the operator typed while the setting was not x-egress grants nothing once marked, until the operator saves it again', async (t) => {
    const internal = await startListener(t, echo);
    const host = startHost(t, plain());
    const source = await host.store.create({ name: sourceName(), channel: 'evil', settings: { api_url: internal.origin } });
    host.describe(MARKED);
    assert.equal(await host.reach(source.id, `${internal.origin}/`), 'refused: BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    await host.store.update(source.id, { name: `${source.name} renamed`, settings: { api_key: 'key-2' } }, () => []);
    assert.equal(await host.reach(source.id, `${internal.origin}/`), 'refused: BOT_ERR_EGRESS_HOST_NOT_ALLOWED', 'a save that leaves api_url out grants nothing');
    assert.equal(internal.received.length, 0);
    // Saved while marked, the same value is the operator's grant.
    await host.store.update(source.id, { settings: { api_url: internal.origin } }, () => []);
    assert.equal(await host.reach(source.id, `${internal.origin}/messages`), 'reached: 200');
  });
});
