import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../host/db/create-knex.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../host/db/embedded-postgres.ts';
import { startHostProcess, type HostProcess } from '../../test/support/host-process.ts';
import { AUTH_SECRET, setUpGreeting } from './e2e-host.ts';

export interface ChaosClusterOptions {
  instances: number;
  platformUrl: string;
  /** BOT_DISPATCH_LEASE_MS: how long a killed instance's work waits before another takes it. */
  leaseMs: number;
}

/**
 * Host instances as `npm start` runs them, on fixed ports (so an instance started again after a
 * kill is where the load balancer expects it), sharing one PostgreSQL server of the benchmark's
 * own: it must be stopped and started under them, so it is never the environment's server.
 */
export class ChaosCluster {
  readonly #hosts: (HostProcess | undefined)[];
  #database: EmbeddedDatabase;
  #sourceRef = '';

  private constructor(
    private readonly dir: string,
    private readonly ports: number[],
    private readonly databasePort: number,
    database: EmbeddedDatabase,
    private readonly options: ChaosClusterOptions,
  ) {
    this.#database = database;
    this.#hosts = ports.map(() => undefined);
  }

  static async start(options: ChaosClusterOptions): Promise<ChaosCluster> {
    const dir = await mkdtemp(path.join(tmpdir(), 'bot-chaos-'));
    await chmod(dir, 0o755); // as root, the embedded PostgreSQL runs as `postgres` and must enter it
    const database = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: 0, persistent: true });
    const ports = await Promise.all(Array.from({ length: options.instances }, freePort));
    const cluster = new ChaosCluster(dir, ports, Number(new URL(database.url).port), database, options);
    try {
      // The first instance migrates the database; the source is made through its admin API.
      await cluster.startInstance(0);
      cluster.#sourceRef = await setUpGreeting(cluster.#hostUrl(0), options.platformUrl);
      for (let index = 1; index < options.instances; index += 1) await cluster.startInstance(index);
      return cluster;
    } catch (error) {
      await cluster.close();
      throw error;
    }
  }

  /** The source's webhook URL on each instance (the first `count` of them). */
  webhookUrls(count = this.ports.length): string[] {
    return this.ports.slice(0, count).map((_, index) => `${this.#hostUrl(index)}/api/webhook/${this.#sourceRef}`);
  }

  async startInstance(index: number): Promise<void> {
    this.#hosts[index] = await startHostProcess({
      DATABASE_URL: this.#database.url,
      PORT: String(this.ports[index]),
      BOT_DATA_DIR: path.join(this.dir, `data-${index}`),
      BOT_AUTH_SECRET: AUTH_SECRET,
      BOT_DOWNLOAD_SECRET: 'chaos-benchmark-download-secret-0123456789abcdef',
      BOT_LOG_LEVEL: 'info',
      BOT_DISPATCH_LEASE_MS: String(this.options.leaseMs),
    });
  }

  /** SIGKILL: no handler, no drain; what the instance held waits for its lease to run out. */
  async killInstance(index: number): Promise<void> {
    await this.#hosts[index]?.kill();
    this.#hosts[index] = undefined;
  }

  stopDatabase(): Promise<void> {
    return this.#database.stop();
  }

  async startDatabase(): Promise<void> {
    this.#database = await startEmbeddedPostgres({ dir: path.join(this.dir, 'pg'), port: this.databasePort, persistent: true });
  }

  /** A connection for counting, once the run is over. */
  connect(): Knex {
    return createKnex({ url: this.#database.url, poolMax: 2 });
  }

  /** Instances that exited by themselves (none should). */
  exited(): number[] {
    return this.#hosts.flatMap((host, index) => (host && host.child.exitCode !== null ? [index] : []));
  }

  /** Writes each instance's output (its logs) into `dir`, as instance-<n>.log; one killed and started again has its latest run's. */
  async saveLogs(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    await Promise.all(this.#hosts.map((host, index) => (host ? writeFile(path.join(dir, `instance-${index + 1}.log`), host.output()) : undefined)));
  }

  async close(): Promise<void> {
    await Promise.all(this.#hosts.map((host) => host?.stop('SIGTERM')));
    await this.#database.stop().catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }

  #hostUrl(index: number): string {
    return `http://127.0.0.1:${this.ports[index]}`;
  }
}

/** A port nothing listens on now, for an instance to take (and take again after a restart). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
