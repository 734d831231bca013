import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHostProcess, type HostProcess } from '../support/host-process.ts';

/**
 * Real `npm start` processes on one database, as instances behind a load balancer: each with a
 * data folder of its own, the same secrets, short leases and polls so takeovers happen in test
 * time, and `info` logs (how a host's listening address is found).
 */
export class HostFleet {
  readonly hosts: HostProcess[] = [];
  readonly #dataDirs: string[] = [];

  constructor(
    private readonly databaseUrl: string,
    readonly authSecret: string,
    private readonly env: Record<string, string> = {},
  ) {}

  async start(): Promise<HostProcess> {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-fleet-'));
    this.#dataDirs.push(dataDir);
    const host = await startHostProcess({
      DATABASE_URL: this.databaseUrl,
      BOT_DATA_DIR: dataDir,
      BOT_AUTH_SECRET: this.authSecret,
      BOT_DOWNLOAD_SECRET: 'fleet-download-secret-0123456789abcdef-0123',
      BOT_LOG_LEVEL: 'info',
      BOT_DISPATCH_LEASE_MS: '2000',
      BOT_DISPATCH_POLL_INTERVAL_MS: '200',
      BOT_SANDBOX_MAX_THREADS: '2',
      ...this.env,
    });
    this.hosts.push(host);
    return host;
  }

  /** Ends every host (`kill`: SIGKILL, else SIGTERM) and removes their data folders. */
  async close(how: 'stop' | 'kill' = 'stop'): Promise<void> {
    await Promise.all(this.hosts.map((host) => (how === 'kill' ? host.kill() : host.stop('SIGTERM'))));
    await Promise.all(this.#dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
