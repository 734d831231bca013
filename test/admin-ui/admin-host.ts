import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { LoginLinks } from '../../host/auth/login-links.ts';
import { launchChromium } from '../support/browser.ts';
import { startHostProcess, type HostProcess } from '../support/host-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const AUTH_SECRET = 'admin-ui-test-auth-secret-0123456789abcdef';

/** A real `npm start` on this file's own database, one browser page, and ways to sign in. */
export interface AdminHost {
  host: HostProcess;
  database: TestDatabase;
  browser: Browser;
  page: Page;
  /** The one-time login link, exactly as `npm start` prints it on the embedded default. */
  loginLink(role?: string): Promise<string>;
  token(role: string): string;
  /** Calls the admin API as admin, for set-up and checks the panel is not under test for. */
  api<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Posts `{ events }` to a webhook URL as a platform would, signed with the source's `webhook_secret`. */
  postSignedWebhook(webhookUrl: string, secret: string, events: Record<string, unknown>[]): Promise<number>;
  /** Waits until the inbound event has left `queued`/`running` (processing is a background job). */
  settledEvent(eventId: string): Promise<{ status: string; reason: string | null }>;
  close(): Promise<void>;
}

/** What the host is started with beyond the defaults every admin-ui test shares. */
export interface AdminHostOptions {
  /**
   * The registry the host installs channel packages from (BOT_CHANNEL_REGISTRY); the packages
   * it installs then go to a temporary BOT_CHANNEL_STORE_DIR, removed at `close()`.
   */
  channelRegistry?: string;
  /** BOT_CHANNEL_INSTALL; the host's default (`registry`) when absent. */
  channelInstall?: 'off' | 'registry' | 'any';
}

export async function startAdminHost(options: AdminHostOptions = {}): Promise<AdminHost> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-admin-ui-'));
  const packageEnv: Record<string, string> = options.channelRegistry === undefined ? {} : { BOT_CHANNEL_REGISTRY: options.channelRegistry, BOT_CHANNEL_STORE_DIR: await mkdtemp(path.join(tmpdir(), 'bot-admin-ui-packages-')) };
  if (options.channelInstall) packageEnv.BOT_CHANNEL_INSTALL = options.channelInstall;
  const removeAll = async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    if (packageEnv.BOT_CHANNEL_STORE_DIR) await rm(packageEnv.BOT_CHANNEL_STORE_DIR, { recursive: true, force: true });
  };
  const host = await startHostProcess({
    DATABASE_URL: database.url,
    BOT_DATA_DIR: dataDir,
    BOT_AUTH_SECRET: AUTH_SECRET,
    BOT_DOWNLOAD_SECRET: 'admin-ui-test-download-secret-0123456789abc',
    // `info`: the harness waits for the "listening" line.
    BOT_LOG_LEVEL: 'info',
    BOT_SANDBOX_MAX_THREADS: '1',
    ...packageEnv,
  }).catch(async (error: unknown) => {
    await removeAll();
    throw error;
  });
  const browser = await launchChromium().catch(async (error: unknown) => {
    await host.stop();
    await removeAll();
    throw error;
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  const token = (role: string) => signAdminToken({ sub: `ui-${role}`, role }, AUTH_SECRET, { ttl: '1h' });
  return {
    host,
    database,
    browser,
    page,
    async loginLink(role = 'admin') {
      const code = await new LoginLinks(database.db).create({ sub: role, role }, 60_000);
      return `${host.url}/login#code=${code}`;
    },
    token,
    async api<T>(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: T }> {
      const response = await fetch(`${host.url}${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${token('admin')}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
      });
      return { status: response.status, body: (response.status === 204 ? undefined : await response.json()) as T };
    },
    postSignedWebhook,
    settledEvent: (eventId) => settledEvent(database, eventId),
    async close() {
      await browser.close();
      await host.stop();
      await removeAll();
    },
  };
}

async function postSignedWebhook(webhookUrl: string, secret: string, events: Record<string, unknown>[]): Promise<number> {
  // The signature covers the raw body: the exact bytes sent, not a re-serialisation.
  const body = JSON.stringify({ events });
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bot-signature': signature }, body });
  await response.arrayBuffer();
  return response.status;
}

// A generous deadline: the job runs as soon as it is queued, but a loaded machine may be slow.
const SETTLE_TIMEOUT_MS = 30_000;

async function settledEvent(database: TestDatabase, eventId: string): Promise<{ status: string; reason: string | null }> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const row: { status: string; reason: string | null } | undefined = await database.db('inbound_events').where({ event_id: eventId }).first('status', 'reason');
    if (row && row.status !== 'queued' && row.status !== 'running') return row;
    if (Date.now() > deadline) throw new Error(`event ${eventId} not settled: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
