import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { SourceStore } from '../sources/source-store.ts';
import { SAMPLE_DEMO_SOURCE } from './sample-demo-source.ts';

const SEED = 'sample-demo-v1';
const GREETING = 'Greeting';

export interface SeedSampleSourceDeps {
  db: Knex;
  sources: Pick<SourceStore, 'create'>;
  channels: Pick<ChannelRegistry, 'running'>;
  logger: Pick<Logger, 'info'>;
}

/** The seeded sample source as `npm start` describes it: its webhook ref and where it sends. */
export interface SampleDemo {
  ref: string;
  apiUrl: string;
}

/**
 * On the embedded default, once the plugins are discovered (the sample channel is a package, so
 * its settings schema is known only then): creates, once per database (a mark in `seeds`), an
 * active `sample` source on the greeting workflow that sends to `platformUrl`, under the fixed
 * ref `sample-demo`. Returns it while it exists and is active (undefined once the operator
 * deleted or disabled it); a sample channel not running seeds nothing, and a later start tries again.
 * @example const demo = await seedSampleSource(services, 'http://127.0.0.1:4100');
 */
export async function seedSampleSource(deps: SeedSampleSourceDeps, platformUrl: string): Promise<SampleDemo | undefined> {
  const { db, channels, logger } = deps;
  if (!channels.running(SAMPLE_DEMO_SOURCE.channel)) {
    logger.info({ channel: SAMPLE_DEMO_SOURCE.channel }, 'the sample channel is not running: no sample source');
    return undefined;
  }
  if (!(await db('seeds').where({ name: SEED }).first())) {
    await createOnce(deps, platformUrl);
    await db('seeds').insert({ name: SEED }).onConflict('name').ignore();
  }
  const source = await db('sources').where({ ref: SAMPLE_DEMO_SOURCE.ref, active: true }).first('ref', 'settings');
  return source ? { ref: source.ref as string, apiUrl: String(source.settings?.api_url ?? '') } : undefined;
}

/** A start cut short may have created it already; a source already under its name is left alone. */
async function createOnce({ db, sources }: SeedSampleSourceDeps, platformUrl: string): Promise<void> {
  if (await db('sources').where({ ref: SAMPLE_DEMO_SOURCE.ref }).orWhere({ name: SAMPLE_DEMO_SOURCE.name }).first('id')) return;
  const workflow = await db('workflows').whereRaw('lower(name) = lower(?)', [GREETING]).first('id');
  await sources.create({
    ref: SAMPLE_DEMO_SOURCE.ref,
    name: SAMPLE_DEMO_SOURCE.name,
    channel: SAMPLE_DEMO_SOURCE.channel,
    settings: { api_url: platformUrl, api_key: SAMPLE_DEMO_SOURCE.apiKey, webhook_secret: SAMPLE_DEMO_SOURCE.webhookSecret },
    defaultWorkflowId: (workflow?.id as string | undefined) ?? null,
  });
}
