import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Knex } from 'knex';
import pino from 'pino';
import { buildApp } from '../../host/app.ts';
import { configSchema } from '../../host/config/config.schema.ts';
import { listen } from '../../host/http/listen.ts';
import { InboxStore } from '../../host/inbox/inbox-store.ts';
import { createServices } from '../../host/services.ts';
import { processTreeUsage } from '../../host/channels/runner/process-tree-usage.ts';
import { sandboxSettingsFrom } from '../../host/channels/sandbox-settings-from-config.ts';
import { buildBaselineApp } from './ingest-baseline-app.ts';
import { HopTimer } from './ingest-hops.ts';
import type { PlatformDelivery } from './ingest-load-plan.ts';
import { checkSource, fixtureToRequest, loadChannelFixtures } from '@bot-ai/api/check';
import { fileURLToPath } from 'node:url';

/** The real platforms' packages, each an arm of its own on the production path. */
export const PLATFORM_ARMS = ['telegram', 'whatsapp', 'messenger', 'slack'] as const;
export type PlatformArm = (typeof PLATFORM_ARMS)[number];

/** The things the ingest benchmark compares. */
export type IngestArm = 'baseline' | 'threads' | 'batched' | 'unbatched' | 'unfiltered' | PlatformArm;

export const INGEST_ARMS: Record<IngestArm, string> = {
  baseline: 'baseline: verify + decode on the main thread, no database',
  threads: 'thread-only: production with the channel in host worker threads (before isolation)',
  batched: 'production: decode in the channel runner (bubblewrap sandbox), group-committed inbox',
  // Next to production, and before the unbatched arm, whose row-per-request load the database is
  // still working off when the next arm starts (the baseline, which uses no database, comes after).
  unfiltered: 'production with the runner in bubblewrap but without its seccomp filter (what the filter costs)',
  unbatched: 'production with batching off: one INSERT per request',
  telegram: "production with bot-channel-telegram: its recorded text update, secret-token header",
  whatsapp: "production with bot-channel-whatsapp: its recorded text message, X-Hub-Signature-256",
  messenger: "production with bot-channel-messenger: its recorded text message, X-Hub-Signature-256",
  slack: "production with bot-channel-slack: its recorded message event, v0 timestamped signature",
};

export interface IngestServers {
  /** The webhook URL each arm posts to. */
  urls: Record<IngestArm, string>;
  /** The source's webhook secret, for signing. */
  secret: string;
  /** What each platform arm sends: its package's recorded delivery. */
  deliveries: Record<PlatformArm, PlatformDelivery>;
  /** The channel calls and inbox commits of every host arm, timed. */
  hops: HopTimer;
  /** CPU time (ms) every channel runner of every arm has used so far (bubblewrap and its Node). */
  runnersCpuMs(): number;
  /** Resident memory of each channel runner, idle after its start, in bytes. */
  runnerIdleRss: Array<{ channel: string; isolation: string; rssBytes: number; pssBytes: number }>;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const SECRET = 'ingest-benchmark-webhook-secret';
const AUTH_SECRET = 'ingest-benchmark-auth-secret-0123456789abcdef';

/**
 * Starts every arm on its own loopback port in this process: the host as `npm start` builds it
 * (production defaults, the sample channel discovered and sandboxed, a source made through the
 * store), once with the inbox as configured and once with batching off; the same host with its
 * runner's seccomp filter off, and with the channel in threads; and the baseline app.
 */
export async function startIngestServers(db: Knex): Promise<IngestServers> {
  const defaults = configSchema.parse({});
  const services = createServices({ db, logger: pino({ level: 'silent' }) });
  await services.channels.load();
  if (!services.channels.get('sample')) throw new Error(`the sample channel is not registered: ${JSON.stringify(services.channels.diagnostics())}`);
  const sandbox = sandboxSettingsFrom();
  const threadOnly = createServices({ db, logger: pino({ level: 'silent' }), channels: { sandbox: { ...sandbox, isolation: { ...sandbox.isolation!, mode: 'threads' } } } });
  await threadOnly.channels.load();
  const unfiltered = createServices({ db, logger: pino({ level: 'silent' }), channels: { sandbox: { ...sandbox, isolation: { ...sandbox.isolation!, seccomp: false } } } });
  await unfiltered.channels.load();
  const source = await services.sources.create({ name: 'Ingest benchmark', channel: 'sample', settings: { webhook_secret: SECRET } });
  const appOptions = { authSecret: AUTH_SECRET, maxBodyBytes: defaults.BOT_HTTP_MAX_BODY_BYTES, webhookMaxBodyBytes: defaults.BOT_WEBHOOK_MAX_BODY_BYTES };
  // As services.ts builds the inbox (events and their dispatch jobs in one transaction), batching off.
  const unbatchedInbox = new InboxStore(db, () => new Date(), { batching: false, notify: true });
  const hops = new HopTimer();
  for (const host of [services, threadOnly, unfiltered]) {
    hops.timeCalls(host.channels);
    hops.timeCommits(host.inbox);
  }
  hops.timeCommits(unbatchedInbox);
  const servers: Record<Exclude<IngestArm, PlatformArm>, Server> = {
    baseline: await listen(buildBaselineApp({ id: source.id, ref: source.ref, settings: source.settings, active: source.active }, defaults.BOT_WEBHOOK_MAX_BODY_BYTES).callback(), 0, HOST),
    threads: await listen(buildApp(threadOnly, appOptions).callback(), 0, HOST),
    batched: await listen(buildApp(services, appOptions).callback(), 0, HOST),
    unbatched: await listen(buildApp({ ...services, inbox: unbatchedInbox }, appOptions).callback(), 0, HOST),
    unfiltered: await listen(buildApp(unfiltered, appOptions).callback(), 0, HOST),
  };
  const urlOf = (server: Server, ref = source.ref) => `http://${HOST}:${(server.address() as { port: number }).port}/api/webhook/${ref}`;
  const platforms = await Promise.all(PLATFORM_ARMS.map((arm) => platformSource(services, arm)));
  return {
    urls: {
      baseline: urlOf(servers.baseline),
      threads: urlOf(servers.threads),
      batched: urlOf(servers.batched),
      unbatched: urlOf(servers.unbatched),
      unfiltered: urlOf(servers.unfiltered),
      ...(Object.fromEntries(platforms.map(({ arm, ref }) => [arm, urlOf(servers.batched, ref)])) as Record<PlatformArm, string>),
    },
    secret: SECRET,
    hops,
    deliveries: Object.fromEntries(platforms.map(({ arm, delivery }) => [arm, delivery])) as Record<PlatformArm, PlatformDelivery>,
    runnersCpuMs: () => [services, unfiltered].reduce((sum, host) => sum + runnersCpuMs(host), 0),
    runnerIdleRss: [...runnerIdleRss(services), ...runnerIdleRss(unfiltered)],
    async close() {
      await Promise.all(Object.values(servers).map(closeServer));
      await Promise.all([services.inbox.close(), threadOnly.inbox.close(), unfiltered.inbox.close(), unbatchedInbox.close()]);
      await Promise.all([services.channels.close(), threadOnly.channels.close(), unfiltered.channels.close()]);
    },
  };
}

/** A source of the platform's channel with its fixtures' settings, and the delivery its arm sends. */
async function platformSource(services: ReturnType<typeof createServices>, arm: PlatformArm): Promise<{ arm: PlatformArm; ref: string; delivery: PlatformDelivery }> {
  const fixtures = await loadChannelFixtures(fileURLToPath(new URL(`../../plugins/bot-channel-${arm}`, import.meta.url)));
  const { manifest } = fixtures;
  const recorded = fixtures.deliveries.get(manifest.replyTo)!;
  const expected = recorded.expect.events ?? [];
  if (expected.length === 0) throw new Error(`bot-channel-${arm}: the replyTo delivery ${manifest.replyTo} lists no events`);
  // Sends never happen here: the platform's URL only has to be one.
  const { settings } = checkSource(manifest, 'http://127.0.0.1:9');
  const source = await services.sources.create({ name: `Ingest benchmark (${arm})`, channel: arm, settings });
  const request = fixtureToRequest(recorded.request);
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return {
    arm,
    ref: source.ref,
    delivery: { headers, body: Buffer.from(request.rawBody).toString('utf8'), idToken: expected[0]!.eventId, events: expected.length, signature: manifest.signature, secret: String(settings[manifest.signature.setting]) },
  };
}

/** Each running runner of one host's channels, with its process tree's usage now. */
function runnerUsages(services: ReturnType<typeof createServices>) {
  return services.channels.diagnostics().flatMap((entry) => {
    const pid = entry.runner?.pid;
    const usage = pid === undefined || pid === null ? undefined : processTreeUsage(pid);
    return usage ? [{ entry, usage }] : [];
  });
}

/** The runners of one host's channels; an idle runner adds nothing to a difference of two readings. */
function runnersCpuMs(services: ReturnType<typeof createServices>): number {
  return runnerUsages(services).reduce((sum, { usage }) => sum + usage.cpuMs, 0);
}

function runnerIdleRss(services: ReturnType<typeof createServices>): IngestServers['runnerIdleRss'] {
  return runnerUsages(services).flatMap(({ entry, usage }) => {
    const isolation = `${entry.isolation ?? '-'}${entry.seccomp === undefined ? '' : entry.seccomp ? ' + seccomp' : ', no seccomp'}`;
    return entry.name ? [{ channel: entry.name, isolation, rssBytes: usage.rssBytes, pssBytes: treePss(usage.pids) }] : [];
  });
}

/**
 * Proportional memory of the tree: RSS counts in full the pages of the Node binary and libraries
 * the runner shares with the host and every other runner; PSS splits them among their users.
 */
function treePss(pids: number[]): number {
  let kilobytes = 0;
  for (const pid of pids) {
    try {
      kilobytes += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kilobytes * 1024;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
