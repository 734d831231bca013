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
import { createServices } from './services.ts';
import { listen } from './http/listen.ts';
import { Dispatcher } from './dispatch/dispatcher.ts';
import { seedExamples } from './seed/seed-examples.ts';
import { createModelResolver } from './workflows/models/model-resolver.ts';
import { readNamedApiKeys } from './workflows/models/named-api-keys.ts';
import { createWebSocketGateway } from './websockets/create-websocket-gateway.ts';
import { seedWebChat } from './seed/seed-web-chat.ts';
import { printChatLink, printReadyLinks } from './print-chat-link.ts';
import { seedSampleSource } from './seed/seed-sample-source.ts';
import { printSampleCommands } from './print-sample-commands.ts';
import { installRulesFrom } from './channels/packages/install-policy.ts';
import { readChannelsFile, type DeclaredPackage } from './channels/packages/channels-file.ts';

type Closer = () => Promise<void>;

const REPEATED_SIGNAL_MS = 1_000;

async function main(): Promise<void> {
  const config = readConfigOrExit();
  const logger = createLogger({ level: config.BOT_LOG_LEVEL, pretty: config.BOT_LOG_PRETTY ?? process.stdout.isTTY });
  const closers: Closer[] = [];
  installShutdown(logger, closers);
  configureRunnerIdentities({ base: config.BOT_ISOLATION_RUNNER_UID_BASE });

  const embedded = config.embeddedDatabase ? await startConfiguredEmbedded(config, logger) : undefined;
  if (embedded) closers.unshift(() => embedded.stop());
  const db = createKnex({ url: embedded?.url ?? config.DATABASE_URL!, poolMax: config.BOT_DB_POOL_MAX, logger });
  closers.unshift(() => db.destroy());
  await migrateToLatest(db);

  const secrets = await resolveSecrets(config);
  // Read before anything serves: a file that does not parse stops the start, as bad configuration does.
  const declared = config.BOT_CHANNELS_FILE === undefined ? undefined : await readChannelsFile(config.BOT_CHANNELS_FILE);
  let listeningPort = config.PORT;
  const services = createServices({
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
      declarative: declared !== undefined,
      registry: { url: config.BOT_CHANNEL_REGISTRY, ...(config.BOT_CHANNEL_REGISTRY_TOKEN === undefined ? {} : { token: config.BOT_CHANNEL_REGISTRY_TOKEN }) },
    },
    attachments: {
      dir: `${config.BOT_DATA_DIR}/attachments`,
      secret: secrets.downloadSecret,
      tokenTtlMs: config.BOT_DOWNLOAD_TOKEN_TTL_MS,
      // Known once listening (PORT may be 0); links are only asked for after that.
      publicBaseUrl: () => config.BOT_PUBLIC_URL ?? `http://${config.HOST}:${listeningPort}`,
    },
    inboundFiles: inboundFileLimitsFrom(config),
    webChat: { sessionSecret: secrets.webSessionSecret },
    // The port as it listens (PORT may be 0): plugins' fetch must not reach the host itself.
    egress: { limits: egressLimitsFrom(config), self: egressSelfFrom(config, () => listeningPort) },
    workflows: {
      models: createModelResolver({ config, namedApiKeys: readNamedApiKeys(process.env) }),
      expressionTimeoutMs: config.BOT_WORKFLOW_EXPRESSION_TIMEOUT_MS,
      threadInactivityMs: config.BOT_THREAD_INACTIVITY_MS,
      dispatchMaxAttempts: config.BOT_DISPATCH_MAX_ATTEMPTS,
      dispatchLeaseMs: config.BOT_DISPATCH_LEASE_MS,
    },
  });
  // Closed after the channels (closers run in reverse): no plugin is left to ask for egress.
  closers.unshift(() => services.egress.close());
  closers.unshift(() => services.channels.close());
  // The SDK's built-in channels (trusted, in host threads) before serving; the plugins after, in
  // the background: one slow to import must not delay the host (its webhooks answer 503 meanwhile).
  await services.channels.load({ origins: ['builtin'] });
  // Started after the first discovery: a notice before it would have nothing to apply to.
  await services.channelSync.start();
  closers.unshift(() => services.channelSync.close());
  await services.sourceCacheSync.start();
  closers.unshift(() => services.sourceCacheSync.close());
  await services.webChat.hub.start();
  closers.unshift(() => services.webChat.hub.close());
  const seeded = embedded ? await seedExamples(services) : undefined;
  const chatSourceRef = embedded ? await seedWebChat(services, seeded) : undefined;
  // Plugins load in the background (their runners start in their sandboxes); the dispatcher
  // starts once they have, so queued events do not spend their attempts on a channel still loading.
  let stopping = false;
  const discovered = discoverPlugins(services, logger, config).then(() => declared && reconcileChannelsFile(services, logger, declared, config.BOT_CHANNELS_FILE!));
  // Not ready for traffic until every enabled channel is loaded or rejected: webhooks sent here
  // meanwhile would be answered 404 or 503. A runner stuck starting holds it at most its own limit.
  services.readiness.holdUntil('channels', discovered, config.BOT_SANDBOX_START_TIMEOUT_MS);
  const dispatching = discovered.then(() =>
    stopping
      ? undefined
      : Dispatcher.start({
          db,
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
  // Closed in reverse: HTTP first (requests in flight finish), then the inbox flushes, then
  // the events in flight finish; events not claimed stay queued for the next start or another instance.
  closers.unshift(async () => {
    stopping = true;
    const dispatcher = await dispatching.catch(() => undefined);
    await dispatcher?.stop();
  });
  closers.unshift(() => services.inbox.close());
  const app = buildApp(services, { authSecret: secrets.authSecret, maxBodyBytes: config.BOT_HTTP_MAX_BODY_BYTES,
    trustProxy: config.BOT_HTTP_TRUST_PROXY,
    publicUrl: config.BOT_PUBLIC_URL,
    webhookMaxBodyBytes: config.BOT_WEBHOOK_MAX_BODY_BYTES,
    metricsToken: config.BOT_METRICS_TOKEN,
  });
  const server = await listen(app.callback(), config.PORT, config.HOST);
  closers.unshift(() => closeServer(server));
  // Closed before the server: open sockets would keep it from closing.
  const sockets = createWebSocketGateway(services);
  sockets.attach(server);
  closers.unshift(() => sockets.close());
  for (const target of [EXPIRED_MEMORY_RECORDS, oldWebChatReplies(config.BOT_WEB_CHAT_REPLY_RETENTION_MS)]) {
    const sweeper = startSweeper(db, config, logger, target);
    closers.unshift(() => sweeper.close());
  }
  services.inboundFileSweeper.start();
  closers.unshift(() => services.inboundFileSweeper.close());

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

/**
 * The data directory holds the cluster and the generated secrets: it is made private first (as
 * root, passable by the cluster's own account, which must reach its data inside it).
 */
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
 * The first SIGINT/SIGTERM closes everything in reverse start order (HTTP, sweeper, database
 * pool, embedded PostgreSQL) and exits 0; another one later exits at once. Under `npm start` a
 * terminal's Ctrl-C arrives twice, from the terminal and relayed by npm: a repeat within
 * REPEATED_SIGNAL_MS is that same request, not an impatient second one.
 */
function installShutdown(logger: Logger, closers: Closer[]): void {
  let stoppingSince: number | undefined;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince > REPEATED_SIGNAL_MS) process.exit(130);
      return;
    }
    stoppingSince = Date.now();
    logger.info({ signal }, 'shutting down');
    // A copy: start-up may still be adding closers at the front while these run.
    for (const close of [...closers]) {
      await close().catch((error: unknown) => logger.error({ err: error }, 'error while shutting down'));
    }
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
