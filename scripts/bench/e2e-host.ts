import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import { startHostProcess, type HostProcess } from '../../test/support/host-process.ts';

export const AUTH_SECRET = 'e2e-benchmark-auth-secret-0123456789abcdef';
export const WEBHOOK_SECRET = 'e2e-benchmark-webhook-secret';
const GREETING = new URL('../../workflows/examples/greeting.yaml', import.meta.url);

export interface E2eHost {
  /** The sample source's webhook URL. */
  webhookUrl: string;
  /** Its webhook secret, for signing. */
  webhookSecret: string;
  /** The host's own process id (not npm's), for its CPU time. */
  pid: number;
  process: HostProcess;
  close(): Promise<void>;
}

/**
 * The host as `npm start` runs it, in a child process on the benchmark's database, so its event
 * loop and CPU time are its own (the platform and the load generator are other processes), with
 * the greeting workflow as the default of a sample source whose replies go to `platformUrl`.
 * `env` adds settings (BOT_DISPATCH_CONCURRENCY, BOT_LOG_LEVEL, …) over production defaults.
 */
export async function startE2eHost(databaseUrl: string, platformUrl: string, env: Record<string, string>): Promise<E2eHost> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-e2e-bench-'));
  const child = await startHostProcess({
    DATABASE_URL: databaseUrl,
    BOT_DATA_DIR: dataDir,
    BOT_AUTH_SECRET: AUTH_SECRET,
    BOT_DOWNLOAD_SECRET: 'e2e-benchmark-download-secret-0123456789abcdef',
    ...env,
  });
  try {
    const sourceRef = await setUpGreeting(child.url, platformUrl);
    return {
      webhookUrl: `${child.url}/api/webhook/${sourceRef}`,
      webhookSecret: WEBHOOK_SECRET,
      pid: Number(/"pid":(\d+)/.exec(child.output())?.[1]),
      process: child,
      async close() {
        await child.stop('SIGTERM');
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await child.kill();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The `profile` memory definition, the greeting workflow bound to it, and the source; returns its ref. */
export async function setUpGreeting(hostUrl: string, platformUrl: string): Promise<string> {
  const token = signAdminToken({ sub: 'e2e-benchmark', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });
  const create = (url: string, body: Record<string, unknown>) => postCreated(`${hostUrl}${url}`, token, body);
  const definition = await create('/api/memory-definitions', {
    name: 'Profile',
    slug: 'profile',
    scope: 'global',
    schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
  });
  const yaml = bindDefinitionPlaceholders(await readFile(GREETING, 'utf8'), new Map([['profile', definition.id as string]]));
  const workflow = await create('/api/workflows', { name: 'Bench greeting', yaml });
  const source = await create('/api/sources', {
    name: 'Bench platform',
    channel: 'sample',
    settings: { api_url: platformUrl, api_key: 'bench-platform-key', webhook_secret: WEBHOOK_SECRET },
    defaultWorkflowId: workflow.id,
  });
  return source.ref as string;
}

async function postCreated(url: string, token: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}
