/**
 * Starts the host: reads configuration, starts the embedded PostgreSQL when no DATABASE_URL is
 * given, migrates, serves HTTP, runs the TTL sweeps and the inbound file sweep, and shuts down in
 * reverse order on SIGINT or SIGTERM.
 */
import type { Server } from 'node:http';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config/config.schema.ts';
import { ConfigError, loadConfig } from './config/load-config.ts';
import { resolveSecrets } from './config/persisted-secrets.ts';
import { createKnex } from './db/create-knex.ts';
import { startConfiguredEmbedded } from './db/embedded/start-configured-embedded.ts';
import { migrateToLatest } from './db/migration-source.ts';
import { isAppError } from './errors/app-error.ts';
import { createLogger } from './logging/create-logger.ts';
import { EXPIRED_MEMORY_RECORDS, TtlSweeper, type SweepTarget } from './memory/records/ttl-sweeper.ts';
import { oldWebChatReplies } from './websockets/web-chat-reply-retention.ts';
import { printAdminLoginLink } from './print-admin-login-link.ts';
import { detectIsolation } from './channels/runner/detect-isolation.ts';
import { configureRunnerIdentities } from './channels/runner/runner-identity.ts';
import { sandboxSettingsFrom } from './channels/sandbox-settings-from-config.ts';
import { egressLimitsFrom } from './egress/egress-limits.ts';
import { egressSelfFrom } from './egress/egress-self.ts';
import { inboundFileLimitsFrom } from './attachments/inbound-file-limits.ts';
import { createServices, type ServiceOptions, type Services } from './services.ts';
import { HostLife } from './life/host-life.ts';
import { listen } from './http/listen.ts';
import { Dispatcher } from './dispatch/dispatcher.ts';
import { seedExamples } from './seed/seed-examples.ts';
import { createModelResolver } from './workflows/models/model-resolver.ts';
import { readNamedApiKeys } from './config/named-api-keys.ts';
import { createWebSocketGateway } from './websockets/create-websocket-gateway.ts';
import { seedWebChat } from './seed/seed-web-chat.ts';
import { printChatLink, printReadyLinks } from './print-chat-link.ts';
import { seedSampleSource } from './seed/seed-sample-source.ts';
import { printSampleCommands } from './print-sample-commands.ts';
import { installRulesFrom } from './channels/packages/install-policy.ts';
import { readChannelsFile, type DeclaredPackage } from './channels/packages/channels-file.ts';

const REPEATED_SIGNAL_MS = 1_000;

/**
 * The host's life, part by part: each `life.start(name, start, stop)` is a part, stopped in
 * reverse order at shutdown. So HTTP stops before the inbox flushes, the inbox before the
 * dispatcher lets its events in flight finish, the channels after everything that calls them,
 * plugin egress after the channels, and the database last.
 */
async function main(): Promise<void> {
  const config = readConfigOrExit();
  const logger = createLogger({ level: config.BOT_LOG_LEVEL, pretty: config.BOT_LOG_PRETTY ?? process.stdout.isTTY });
  const life = new HostLife(logger);
  installShutdown(logger, life);
  configureRunnerIdentities({ base: config.BOT_ISOLATION_RUNNER_UID_BASE });

  const embedded = config.embeddedDatabase ? await life.start('embedded database', () => startConfiguredEmbedded(config, logger), (started) => started.stop()) : undefined;
  const db = await life.start('database pool', () => createKnex({ url: embedded?.url ?? config.DATABASE_URL!, poolMax: config.BOT_DB_POOL_MAX, logger }), (pool) => pool.destroy());
  await migrateToLatest(db);

  const secrets = await resolveSecrets(config);
  // Read before anything serves: a file that does not parse stops the start, as bad configuration does.
  const declared = config.BOT_CHANNELS_FILE === undefined ? undefined : await readChannelsFile(config.BOT_CHANNELS_FILE);
  let listeningPort = config.PORT;
  const services = createServices(serviceOptions(config, { db, logger, secrets, listeningPort: () => listeningPort }));
  // Stopped after the channels: no plugin is left to ask for egress.
  await life.start('plugin egress', () => services.egress, (egress) => egress.close());
  // The SDK's built-in channels (trusted, in host threads) before serving; the plugins after, in
  // the background: one slow to import must not delay the host (its webhooks answer 503 meanwhile).
  await life.start('channels', () => services.channels.load({ origins: ['builtin'] }), () => services.channels.close());
  // Started after the first discovery: a notice before it would have nothing to apply to.
  await life.start('channel sync', () => services.channelSync.start(), () => services.channelSync.close());
  await life.start('source cache sync', () => services.sourceCacheSync.start(), () => services.sourceCacheSync.close());
  await life.start('workflow cache sync', () => services.workflowCacheSync.start(), () => services.workflowCacheSync.close());
  await life.start('web chat hub', () => services.webChat.hub.start(), () => services.webChat.hub.close());
  const seeded = embedded ? await seedExamples(services) : undefined;
  const chatSourceRef = embedded ? await seedWebChat(services, seeded) : undefined;
  // Plugins load in the background (their runners start in their sandboxes); the dispatcher
  // starts once they have, so queued events do not spend their attempts on a channel still loading.
  let stopping = false;
  const discovered = discoverPlugins(services, logger, config).then(() => declared && reconcileChannelsFile(services, logger, declared, config.BOT_CHANNELS_FILE!));
  // Not ready for traffic until every enabled channel is loaded or rejected: webhooks sent here
  // meanwhile would be answered 404 or 503. A runner stuck starting holds it at most its own limit.
  services.readiness.holdUntil('channels', discovered, config.BOT_SANDBOX_START_TIMEOUT_MS);
  // Stopping lets the events in flight finish; events not claimed stay queued for the next start or another instance.
  // Wrapped: `start` would otherwise wait for the dispatcher, which waits for the discovery.
  await life.start('dispatcher', () => ({ dispatching: startDispatcherAfter(discovered, () => stopping, services, config, logger) }), async ({ dispatching }) => {
    stopping = true;
    const dispatcher = await dispatching.catch(() => undefined);
    await dispatcher?.stop();
  });
  await life.start('inbox', () => services.inbox, (inbox) => inbox.close());
  const app = buildApp(services, { authSecret: secrets.authSecret, maxBodyBytes: config.BOT_HTTP_MAX_BODY_BYTES,
    trustProxy: config.BOT_HTTP_TRUST_PROXY,
    publicUrl: config.BOT_PUBLIC_URL,
    webhookMaxBodyBytes: config.BOT_WEBHOOK_MAX_BODY_BYTES,
    metricsToken: config.BOT_METRICS_TOKEN,
  });
  // Requests in flight finish when HTTP stops.
  const server = await life.start('http server', () => listen(app.callback(), config.PORT, config.HOST), closeServer);
  // Stopped before the server: open sockets would keep it from closing.
  await life.start('websockets', () => attachWebSockets(services, server), (sockets) => sockets.close());
  for (const target of [EXPIRED_MEMORY_RECORDS, oldWebChatReplies(config.BOT_WEB_CHAT_REPLY_RETENTION_MS)]) {
    await life.start(`${target.name} sweeper`, () => startSweeper(db, config, logger, target), (sweeper) => sweeper.close());
  }
  await life.start('inbound file sweeper', () => services.inboundFileSweeper.start(), () => services.inboundFileSweeper.close());

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  listeningPort = port;
  const publicUrl = config.BOT_PUBLIC_URL ?? `http://${config.HOST}:${port}`;
  logger.info({ url: publicUrl, database: embedded ? 'embedded' : 'external' }, 'bot host listening');
  if (embedded) await printAdminLoginLink(services.loginLinks, publicUrl, config.BOT_AUTH_LOGIN_LINK_TTL_MS);
  if (chatSourceRef) printChatLink(publicUrl, chatSourceRef);
  if (embedded) {
    void discovered
      .then(() => (stopping ? undefined : offerSampleDemo(services, config, publicUrl)))
      .catch((error: unknown) => logger.warn({ err: error }, 'the sample source could not be seeded; the other examples work'))
      .then(() => stopping || printReadyLinks(publicUrl, chatSourceRef));
  }
}

/** What the services are built with: the configured values, the resolved secrets, and the port once listening. */
function serviceOptions(config: Config, { db, logger, secrets, listeningPort }: { db: Knex; logger: Logger; secrets: Awaited<ReturnType<typeof resolveSecrets>>; listeningPort: () => number }): ServiceOptions {
  return {
    db,
    logger,
    processMetrics: true,
    channels: {
      appRoot: config.BOT_APP_ROOT,
      sandbox: sandboxSettingsFrom(config),
    },
    channelPackages: {
      storeDir: config.BOT_CHANNEL_STORE_DIR,
      policy: config.BOT_CHANNEL_INSTALL,
      rules: installRulesFrom(config),
      declarative: config.BOT_CHANNELS_FILE !== undefined,
      registry: { url: config.BOT_CHANNEL_REGISTRY, ...(config.BOT_CHANNEL_REGISTRY_TOKEN === undefined ? {} : { token: config.BOT_CHANNEL_REGISTRY_TOKEN }) },
    },
    attachments: {
      dir: `${config.BOT_DATA_DIR}/attachments`,
      secret: secrets.downloadSecret,
      tokenTtlMs: config.BOT_DOWNLOAD_TOKEN_TTL_MS,
      // Known once listening (PORT may be 0); links are only asked for after that.
      publicBaseUrl: () => config.BOT_PUBLIC_URL ?? `http://${config.HOST}:${listeningPort()}`,
    },
    inboundFiles: inboundFileLimitsFrom(config),
    webChat: { sessionSecret: secrets.webSessionSecret },
    // The port as it listens (PORT may be 0): plugins' fetch must not reach the host itself.
    egress: { limits: egressLimitsFrom(config), self: egressSelfFrom(config, listeningPort) },
    workflows: {
      models: createModelResolver({ config, namedApiKeys: readNamedApiKeys(process.env) }),
      expressionTimeoutMs: config.BOT_WORKFLOW_EXPRESSION_TIMEOUT_MS,
      threadInactivityMs: config.BOT_THREAD_INACTIVITY_MS,
      dispatchMaxAttempts: config.BOT_DISPATCH_MAX_ATTEMPTS,
      dispatchLeaseMs: config.BOT_DISPATCH_LEASE_MS,
    },
  };
}

function attachWebSockets(services: Services, server: Server): ReturnType<typeof createWebSocketGateway> {
  const sockets = createWebSocketGateway(services);
  sockets.attach(server);
  return sockets;
}

/**
 * Starts the dispatcher once `discovered` settles, unless the host is stopping by then; in the
 * background, so the host serves meanwhile. A dispatcher that cannot start stops the host.
 */
function startDispatcherAfter(discovered: Promise<unknown>, stopping: () => boolean, services: Services, config: Config, logger: Logger): Promise<Dispatcher | undefined> {
  const dispatching = discovered.then(() =>
    stopping()
      ? undefined
      : Dispatcher.start({
          db: services.db,
          processor: services.inboundEvents,
          concurrency: config.BOT_DISPATCH_CONCURRENCY,
          pollIntervalMs: config.BOT_DISPATCH_POLL_INTERVAL_MS,
          leaseMs: config.BOT_DISPATCH_LEASE_MS,
          countClaim: (trigger) => services.metrics.eventClaims.inc({ trigger }),
          logger,
        }),
  );
  dispatching.catch((error: unknown) => {
    logger.fatal({ err: error }, 'the dispatcher could not start; stopping');
    process.kill(process.pid, 'SIGTERM');
  });
  return dispatching;
}

/**
 * Seeds the sample source once the plugins are discovered (the sample channel is one of them)
 * and prints the two commands that make it answer; in the background, since it waits for them.
 */
async function offerSampleDemo(services: ReturnType<typeof createServices>, config: Config, publicUrl: string): Promise<void> {
  const demo = await seedSampleSource(services, config.BOT_SAMPLE_PLATFORM_URL);
  if (demo) printSampleCommands(publicUrl, demo.apiUrl);
}

/** Makes the installed channel packages what BOT_CHANNELS_FILE declares; what fails is logged and left as it was. */
async function reconcileChannelsFile(services: ReturnType<typeof createServices>, logger: Logger, declared: DeclaredPackage[], file: string): Promise<void> {
  try {
    const failures = await services.channelPackages.reconcile(declared, `file:${file}`);
    for (const failure of failures) logger.error({ package: failure.name, code: failure.code, reason: failure.message }, 'a channel package of BOT_CHANNELS_FILE could not be applied; what was installed stays');
    logger.info({ file, packages: declared.length, failed: failures.length }, 'channel packages reconciled with BOT_CHANNELS_FILE');
  } catch (error) {
    logger.error({ err: error, file }, 'reconciling BOT_CHANNELS_FILE failed; what was installed stays');
  }
}

/** Discovers every channel (each plugin in its runner), then says so: `channels discovered`. */
async function discoverPlugins(services: ReturnType<typeof createServices>, logger: Logger, config: Config): Promise<void> {
  try {
    const isolation = await detectIsolation();
    if (isolation.tier === 'reduced') {
      const outcome = config.BOT_ISOLATION === 'strict' ? 'BOT_ISOLATION=strict: package and local channels will not start' : 'channels run with the permission model only';
      logger.warn({ reason: isolation.reason }, `channel isolation is reduced (${outcome}): ${isolation.reason}`);
    }
    await services.channels.rescan();
  } catch (error) {
    logger.error({ err: error }, 'channel discovery failed; POST /api/channel/rescan tries again');
    return;
  }
  logChannels(services, logger);
  logger.info({ channels: services.channels.registered().length }, 'channels discovered');
}

function logChannels(services: ReturnType<typeof createServices>, logger: Logger): void {
  for (const entry of services.channels.diagnostics()) {
    if (entry.status === 'rejected') logger.warn({ file: entry.file, code: entry.code, reason: entry.message }, 'channel rejected');
    else logger.info({ channel: entry.name, file: entry.file, status: entry.status }, 'channel registered');
  }
}

function readConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/** Sweeps `target` on the memory sweep's interval and batch settings, one instance at a time. */
function startSweeper(db: Knex, config: Config, logger: Logger, target: SweepTarget): TtlSweeper {
  const sweeper = new TtlSweeper(db, {
    target,
    intervalMs: config.BOT_MEMORY_SWEEP_INTERVAL_MS,
    batchSize: config.BOT_MEMORY_SWEEP_BATCH_SIZE,
    pauseMs: config.BOT_MEMORY_SWEEP_PAUSE_MS,
    now: () => new Date(),
    logger,
  });
  sweeper.start();
  return sweeper;
}

/** Stops accepting connections, lets requests in flight finish, then closes idle keep-alives. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}

/**
 * The first SIGINT/SIGTERM stops the host's parts in reverse start order (HTTP first, the
 * database last) and exits 0; another one later exits at once. Under `npm start` a terminal's
 * Ctrl-C arrives twice, from the terminal and relayed by npm: a repeat within
 * REPEATED_SIGNAL_MS is that same request, not an impatient second one.
 */
function installShutdown(logger: Logger, life: HostLife): void {
  let stoppingSince: number | undefined;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince > REPEATED_SIGNAL_MS) process.exit(130);
      return;
    }
    stoppingSince = Date.now();
    logger.info({ signal, order: life.stopOrder() }, 'shutting down');
    await life.stop();
    logger.info('bot host stopped');
    logger.flush();
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void shutdown(signal));
  process.on('SIGTERM', (signal) => void shutdown(signal));
}

/**
 * A refusal we raised ourselves (data directory in use, a folder the database cannot reach) is
 * one line an operator can act on; anything else keeps its stack.
 */
function reportStartFailure(error: unknown): void {
  if (!isAppError(error)) {
    console.error('bot host failed to start:', error);
    return;
  }
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  console.error(`bot host failed to start: ${error.code}: ${error.message}${cause}`);
}

main().catch((error: unknown) => {
  reportStartFailure(error);
  process.exit(1);
});
