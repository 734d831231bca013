import type { Server } from 'node:http';
import type { Knex } from 'knex';
import pino from 'pino';
import { buildApp } from '../../host/app.ts';
import { configSchema } from '../../host/config/config.schema.ts';
import { listen } from '../../host/http/listen.ts';
import { InboxStore } from '../../host/inbox/inbox-store.ts';
import { createServices } from '../../host/services.ts';
import { buildBaselineApp } from './ingest-baseline-app.ts';

/** The three things the ingest benchmark compares. */
export type IngestArm = 'baseline' | 'batched' | 'unbatched';

export const INGEST_ARMS: Record<IngestArm, string> = {
  baseline: 'baseline: verify + decode on the main thread, no database',
  batched: 'production: sandboxed decode, group-committed inbox',
  unbatched: 'production with batching off: one INSERT per request',
};

export interface IngestServers {
  /** The webhook URL each arm posts to. */
  urls: Record<IngestArm, string>;
  /** The source's webhook secret, for signing. */
  secret: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const SECRET = 'ingest-benchmark-webhook-secret';
const AUTH_SECRET = 'ingest-benchmark-auth-secret-0123456789abcdef';

/**
 * Starts every arm on its own loopback port in this process: the host as `npm start` builds it
 * (production defaults, the sample channel discovered and sandboxed, a source made through the
 * store), once with the inbox as configured and once with batching off, and the baseline app.
 */
export async function startIngestServers(db: Knex): Promise<IngestServers> {
  const defaults = configSchema.parse({});
  const services = createServices({ db, logger: pino({ level: 'silent' }) });
  await services.channels.load();
  if (!services.channels.get('sample')) throw new Error(`the sample channel is not registered: ${JSON.stringify(services.channels.diagnostics())}`);
  const source = await services.sources.create({ name: 'Ingest benchmark', channel: 'sample', settings: { webhook_secret: SECRET } });
  const appOptions = { authSecret: AUTH_SECRET, maxBodyBytes: defaults.BOT_HTTP_MAX_BODY_BYTES, webhookMaxBodyBytes: defaults.BOT_WEBHOOK_MAX_BODY_BYTES };
  // As services.ts builds the inbox (events and their dispatch jobs in one transaction), batching off.
  const unbatchedInbox = new InboxStore(db, () => new Date(), { batching: false, enqueue: { maxAttempts: services.dispatchMaxAttempts } });
  const servers: Record<IngestArm, Server> = {
    baseline: await listen(buildBaselineApp({ id: source.id, ref: source.ref, settings: source.settings, active: source.active }, defaults.BOT_WEBHOOK_MAX_BODY_BYTES).callback(), 0, HOST),
    batched: await listen(buildApp(services, appOptions).callback(), 0, HOST),
    unbatched: await listen(buildApp({ ...services, inbox: unbatchedInbox }, appOptions).callback(), 0, HOST),
  };
  const urlOf = (server: Server) => `http://${HOST}:${(server.address() as { port: number }).port}/api/webhook/${source.ref}`;
  return {
    urls: { baseline: urlOf(servers.baseline), batched: urlOf(servers.batched), unbatched: urlOf(servers.unbatched) },
    secret: SECRET,
    async close() {
      await Promise.all(Object.values(servers).map(closeServer));
      await Promise.all([services.inbox.close(), unbatchedInbox.close()]);
      await services.channels.close();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
