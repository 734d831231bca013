import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { JobEngine } from '../../host/dispatch/job-engine.ts';
import { listen } from '../../host/http/listen.ts';
import { createWebSocketGateway } from '../../host/websockets/create-websocket-gateway.ts';
import type { WebSocketGateway } from '../../host/websockets/websocket-gateway.ts';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GREETING = fileURLToPath(new URL('../../workflows/examples/greeting.yaml', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 96, maxThreads: 2, maxQueue: 1_000, idleTimeoutMs: 10_000 };

/**
 * The whole live chat pipeline on this file's database: the host app on a real port with its
 * socket gateway, the built-in `web` channel in its sandbox, the job engine, and a `web` source
 * whose default workflow is the greeting example.
 */
export class WebChatHarness {
  private constructor(
    readonly app: TestApp,
    readonly server: Server,
    readonly gateway: WebSocketGateway,
    readonly jobs: JobEngine,
    readonly source: { id: string; ref: string },
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<WebChatHarness> {
    const app = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
    await app.services.channels.load();
    await app.services.webChat.hub.start();
    const jobs = await JobEngine.start({
      db: app.database.db,
      processor: app.services.inboundEvents,
      concurrency: 4,
      pollIntervalMs: 200,
      leaseMs: 5_000,
      logger: pino({ level: 'silent' }),
    });
    const definition = await expectCreated(app, '/api/memory-definitions', {
      name: 'Profile',
      slug: 'profile',
      scope: 'global',
      schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
    });
    const yaml = bindDefinitionPlaceholders(readFileSync(GREETING, 'utf8'), new Map([['profile', definition.id as string]]));
    const workflow = await expectCreated(app, '/api/workflows', { name: 'Greeting', yaml });
    const source = await expectCreated(app, '/api/sources', { name: 'Web chat', channel: 'web', settings: {}, defaultWorkflowId: workflow.id });
    const server = await listen(app.app.callback(), 0, '127.0.0.1');
    const gateway = createWebSocketGateway(app.services);
    gateway.attach(server);
    const address = server.address() as { port: number };
    return new WebChatHarness(app, server, gateway, jobs, source as { id: string; ref: string }, `http://127.0.0.1:${address.port}`);
  }

  /** The socket URL of a source (this harness's by default). */
  socketUrl(ref = this.source.ref): string {
    return `${this.baseUrl.replace('http', 'ws')}/api/ws/${ref}`;
  }

  async close(): Promise<void> {
    await this.gateway.close();
    await new Promise((resolve) => this.server.close(resolve));
    await this.jobs.stop();
    await this.app.services.webChat.hub.close();
    await this.app.close();
  }
}

export async function expectCreated(app: TestApp, url: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await app.request('POST', url, { as: 'admin', body });
  assert.equal(response.status, 201, `${url}: ${response.text}`);
  return response.body;
}
