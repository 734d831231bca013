import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { inject, type InjectOptions } from 'light-my-request';
import pino, { type Logger } from 'pino';
import { buildApp } from '../../host/app.ts';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import type { AppState } from '../../host/http/app-state.ts';
import { createServices, type ServiceOptions, type Services } from '../../host/services.ts';
import { TestClock } from './test-clock.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export const TEST_AUTH_SECRET = 'test-auth-secret-0123456789abcdef-0123456789';
export const TEST_DOWNLOAD_SECRET = 'test-download-secret-0123456789abcdef-01234';
/** The base of download links in tests (BOT_PUBLIC_URL). */
export const TEST_PUBLIC_URL = 'http://bot.test';

export interface TestResponse {
  status: number;
  headers: Record<string, unknown>;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export interface RequestOptions {
  /** A role name (a token is minted for it) or a raw Authorization header value. */
  as?: string;
  authorization?: string;
  body?: unknown;
  /** Bytes sent as they are, with their content type (a file upload); instead of `body`. */
  raw?: { bytes: Buffer; type: string };
  headers?: Record<string, string>;
}

export interface TestApp {
  app: Koa<AppState>;
  services: Services;
  database: TestDatabase;
  clock: TestClock;
  /** This app's own temporary attachments folder, removed by close(). */
  attachmentsDir: string;
  request(method: InjectOptions['method'], url: string, options?: RequestOptions): Promise<TestResponse>;
  tokenFor(role: string, sub?: string): string;
  close(): Promise<void>;
}

/**
 * The real app on this file's own database, answering injected requests (no socket), with a
 * hand-moved clock and silent logs.
 */
export async function createTestApp(
  options: {
    maxBodyBytes?: number;
    channels?: ServiceOptions['channels'];
    attachments?: ServiceOptions['attachments'];
    /** The quota and retention of the files subscribers send (the sweeper is not started). */
    inboundFiles?: ServiceOptions['inboundFiles'];
    workflows?: ServiceOptions['workflows'];
    /** Plugins' egress: limits, and a resolver pointing names at local listeners. */
    egress?: ServiceOptions['egress'];
    /** Default: silent. Pass one writing somewhere readable to check what the host logs. */
    logger?: Logger;
    /** Channel packages the host installs: default none (installing is off). */
    channelPackages?: ServiceOptions['channelPackages'];
    /** Another instance's app: this one shares its database instead of making its own. */
    database?: TestDatabase;
  } = {},
): Promise<TestApp> {
  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  const clock = new TestClock();
  const attachmentsDir = await mkdtemp(path.join(tmpdir(), 'bot-test-attachments-'));
  const services = createServices({
    db: database.db,
    logger: options.logger ?? pino({ level: 'silent' }),
    now: clock.now,
    ...(options.channels ? { channels: options.channels } : {}),
    ...(options.workflows ? { workflows: options.workflows } : {}),
    ...(options.inboundFiles ? { inboundFiles: options.inboundFiles } : {}),
    ...(options.egress ? { egress: options.egress } : {}),
    ...(options.channelPackages ? { channelPackages: options.channelPackages } : {}),
    attachments: { dir: attachmentsDir, secret: TEST_DOWNLOAD_SECRET, publicBaseUrl: TEST_PUBLIC_URL, ...options.attachments },
  });
  const app = buildApp(services, { authSecret: TEST_AUTH_SECRET, maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024 });
  const handler = app.callback();
  const tokenFor = (role: string, sub = `${role}-user`) => signAdminToken({ sub, role }, TEST_AUTH_SECRET, { ttl: '1h' });
  return {
    app,
    services,
    database,
    clock,
    attachmentsDir,
    tokenFor,
    async request(method, url, { as, authorization, body, raw, headers = {} } = {}) {
      const auth = authorization ?? (as ? `Bearer ${tokenFor(as)}` : undefined);
      const payload = raw ? { type: raw.type, data: raw.bytes } : body === undefined ? undefined : { type: 'application/json', data: typeof body === 'string' ? body : JSON.stringify(body) };
      const response = await inject(handler, {
        method,
        url,
        headers: {
          ...(auth ? { authorization: auth } : {}),
          ...(payload ? { 'content-type': payload.type } : {}),
          ...headers,
        },
        ...(payload ? { payload: payload.data } : {}),
      });
      let parsed: unknown = response.payload;
      try {
        parsed = JSON.parse(response.payload);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.statusCode, headers: response.headers, body: parsed, text: response.payload };
    },
    async close() {
      await services.inboundFileSweeper.close();
      await services.channelSync.close();
      await services.channels.close();
      await services.egress.close();
      if (ownDatabase) await database.close();
      await rm(attachmentsDir, { recursive: true, force: true });
    },
  };
}
