import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { SourceStore } from '../sources/source-store.ts';
import { WEB_CHANNEL } from '../web-chat/chat-page.routes.ts';

const SEED = 'web-chat-v1';
const SOURCE_NAME = 'Web chat';
const GREETING = 'Greeting';

export interface SeedWebChatDeps {
  db: Knex;
  sources: Pick<SourceStore, 'create'>;
  channels: Pick<ChannelRegistry, 'running'>;
  logger: Pick<Logger, 'warn'>;
}

/**
 * On the embedded default: creates, once per database (a mark in `seeds`), a `web` source whose
 * default workflow is the greeting example, so a newcomer can chat at once. Returns the ref of
 * the first active web source (the seeded one, or whichever the operator kept), whose chat URL
 * `npm start` prints; undefined when there is none or the web channel is not running.
 * @example const ref = await seedWebChat(services); // then print `${publicUrl}/chat/${ref}`
 */
export async function seedWebChat({ db, sources, channels, logger }: SeedWebChatDeps, workflowIds?: Map<string, string>): Promise<string | undefined> {
  if (!channels.running(WEB_CHANNEL)) {
    logger.warn({ channel: WEB_CHANNEL }, 'the web channel is not running: no chat link');
    return undefined;
  }
  if (!(await db('seeds').where({ name: SEED }).first())) {
    const workflowId = workflowIds?.get(GREETING) ?? (await db('workflows').whereRaw('lower(name) = lower(?)', [GREETING]).first('id'))?.id;
    const existing = await db('sources').where({ name: SOURCE_NAME }).first('id');
    if (!existing) await sources.create({ name: SOURCE_NAME, channel: WEB_CHANNEL, settings: { title: 'Greeting bot' }, defaultWorkflowId: workflowId ?? null });
    await db('seeds').insert({ name: SEED }).onConflict('name').ignore();
  }
  const source = await db('sources').where({ channel: WEB_CHANNEL, active: true }).orderBy('created_at').first('ref');
  return source?.ref as string | undefined;
}
