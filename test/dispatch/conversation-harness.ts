import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Dispatcher } from '../../host/dispatch/dispatcher.ts';
import { expectCreated } from '../support/expect-created.ts';
import { createGreetingWorkflow, startDispatcher } from '../support/greeting-setup.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { FakePlatform } from './fake-platform.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 96, maxThreads: 2, maxQueue: 1_000, idleTimeoutMs: 10_000 };
export const WEBHOOK_SECRET = 'whsec-conversations';
export const PLATFORM_KEY = 'platform-api-key';

/** A sample-platform message event from `sender` (the payload plugins/bot-channel-sample/README.md describes). */
export function sampleEvent(id: string, sender: string, text: string): Record<string, unknown> {
  return { id, timestamp: 1763800000000, sender: { id: sender, first_name: sender.toUpperCase() }, recipient: { id: 'bot-1' }, message: { text } };
}

/**
 * The whole pipeline on this file's database: the host app (injected HTTP), the sample channel
 * in its sandbox, the dispatcher, the greeting workflow as the source's default, and a fake
 * platform on a real port that receives the replies.
 */
export class ConversationHarness {
  private constructor(
    readonly app: TestApp,
    readonly platform: FakePlatform,
    readonly dispatcher: Dispatcher,
    readonly source: { id: string; ref: string },
    readonly workflowId: string,
  ) {}

  static async start(options: { maxAttempts?: number; logger?: Logger } = {}): Promise<ConversationHarness> {
    const platform = await FakePlatform.start();
    const app = await createTestApp({
      channels: { appRoot: REPO_ROOT, sandbox: SANDBOX },
      ...(options.maxAttempts ? { workflows: { dispatchMaxAttempts: options.maxAttempts } } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    await app.services.channels.load();
    const dispatcher = await startDispatcher(app, options.logger);
    const workflow = await createGreetingWorkflow(app);
    const source = await expectCreated(app, '/api/sources', {
      name: 'Sample platform',
      channel: 'sample',
      settings: { api_url: platform.url, api_key: PLATFORM_KEY, webhook_secret: WEBHOOK_SECRET },
      defaultWorkflowId: workflow.id,
    });
    return new ConversationHarness(app, platform, dispatcher, source as { id: string; ref: string }, workflow.id as string);
  }

  /** Posts one signed webhook carrying `events`; returns the HTTP status. */
  async deliver(events: Record<string, unknown>[], path = `/api/webhook/${this.source.ref}`): Promise<number> {
    const raw = JSON.stringify({ events });
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex');
    const response = await this.app.request('POST', path, { body: raw, headers: { 'content-type': 'application/json', 'x-bot-signature': signature } });
    return response.status;
  }

  /** Waits until every listed event has left `queued`/`running`; returns their rows by event id. */
  async settled(eventIds: string[], timeoutMs = 15_000): Promise<Map<string, { status: string; reason: string | null }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows: { event_id: string; status: string; reason: string | null }[] = await this.app.database
        .db('inbound_events')
        .whereIn('event_id', eventIds)
        .select('event_id', 'status', 'reason');
      const finished = rows.filter((row) => row.status !== 'queued' && row.status !== 'running');
      if (finished.length === eventIds.length) return new Map(rows.map((row) => [row.event_id, row]));
      if (Date.now() > deadline) assert.fail(`events not settled: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.stop();
    await this.app.close();
    await this.platform.close();
  }
}
