import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Dispatcher } from '../../host/dispatch/dispatcher.ts';
import { listen } from '../../host/http/listen.ts';
import { createWebSocketGateway } from '../../host/websockets/create-websocket-gateway.ts';
import type { WebSocketGateway } from '../../host/websockets/websocket-gateway.ts';
import { expectCreated } from '../support/expect-created.ts';
import { createGreetingWorkflow, startDispatcher } from '../support/greeting-setup.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/** The web-chat tests create their own records with it too. */
export { expectCreated };

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 96, maxThreads: 2, maxQueue: 1_000, idleTimeoutMs: 10_000 };

/**
 * The whole live chat pipeline on this file's database: the host app on a real port with its
 * socket gateway, the built-in `web` channel in its sandbox, the dispatcher, and a `web` source
 * whose default workflow is the greeting example.
 */
export class WebChatHarness {
  private constructor(
    readonly app: TestApp,
    readonly server: Server,
    readonly gateway: WebSocketGateway,
    readonly dispatcher: Dispatcher,
    readonly source: { id: string; ref: string },
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<WebChatHarness> {
    const app = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
    await app.services.channels.load();
    await app.services.webChat.hub.start();
    const dispatcher = await startDispatcher(app);
    const workflow = await createGreetingWorkflow(app);
    const source = await expectCreated(app, '/api/sources', { name: 'Web chat', channel: 'web', settings: {}, defaultWorkflowId: workflow.id });
    const server = await listen(app.app.callback(), 0, '127.0.0.1');
    const gateway = createWebSocketGateway(app.services);
    gateway.attach(server);
    const address = server.address() as { port: number };
    return new WebChatHarness(app, server, gateway, dispatcher, source as { id: string; ref: string }, `http://127.0.0.1:${address.port}`);
  }

  /** The socket URL of a source (this harness's by default). */
  socketUrl(ref = this.source.ref): string {
    return `${this.baseUrl.replace('http', 'ws')}/api/ws/${ref}`;
  }

  async close(): Promise<void> {
    await this.gateway.close();
    await new Promise((resolve) => this.server.close(resolve));
    await this.dispatcher.stop();
    await this.app.services.webChat.hub.close();
    await this.app.close();
  }
}
