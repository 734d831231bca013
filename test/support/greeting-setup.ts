import { readFileSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import { Dispatcher } from '../../host/dispatch/dispatcher.ts';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import { expectCreated } from './expect-created.ts';
import type { TestApp } from './test-app.ts';

const GREETING = new URL('../../workflows/examples/greeting.yaml', import.meta.url);

/** Starts a silent dispatcher for `app`'s inbound events (4 at once, 200 ms polls); the caller stops it. */
export function startDispatcher(app: TestApp, logger: Logger = pino({ level: 'silent' })): Promise<Dispatcher> {
  return Dispatcher.start({
    db: app.database.db,
    processor: app.services.inboundEvents,
    concurrency: 4,
    pollIntervalMs: 200,
    leaseMs: 5_000,
    logger,
  });
}

/** Creates the global `profile` memory definition and the greeting example bound to it; returns the workflow. */
export async function createGreetingWorkflow(app: TestApp): Promise<Record<string, unknown>> {
  const definition = await expectCreated(app, '/api/memory-definitions', {
    name: 'Profile',
    slug: 'profile',
    scope: 'global',
    schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
  });
  const yaml = bindDefinitionPlaceholders(readFileSync(GREETING, 'utf8'), new Map([['profile', definition.id as string]]));
  return expectCreated(app, '/api/workflows', { name: 'Greeting', yaml });
}
