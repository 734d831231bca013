import type { Logger } from 'pino';
import type { Config } from '../../config/config.schema.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../embedded-postgres.ts';
import { ensurePrivateDir } from './ensure-private-dir.ts';
import { postgresAccount } from './postgres-account.ts';

/**
 * The embedded PostgreSQL of a host without DATABASE_URL, under BOT_DATA_DIR (a folder only the
 * host may enter): for the host itself, and for the tools that work before it has ever run.
 * @example const embedded = await startConfiguredEmbedded(config, logger); // embedded.url
 */
export async function startConfiguredEmbedded(config: Config, logger: Logger): Promise<EmbeddedDatabase> {
  await ensurePrivateDir(config.BOT_DATA_DIR, await postgresAccount());
  const dir = `${config.BOT_DATA_DIR}/postgres`;
  logger.info({ dir }, 'no DATABASE_URL: starting the embedded PostgreSQL');
  return startEmbeddedPostgres({ dir, port: config.BOT_DB_EMBEDDED_PORT, logger });
}
