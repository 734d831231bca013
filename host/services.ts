import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { LoginLinks } from './auth/login-links.ts';
import { StartupReadiness } from './health/startup-readiness.ts';
import type { ChannelRegistry } from './channels/channel-registry.ts';
import { createChannelRegistry, type ChannelRegistryOptions } from './channels/create-channel-registry.ts';
import { sandboxSettingsFrom } from './channels/sandbox-settings-from-config.ts';
import type { ChannelCalls } from './channels/calls/channel-calls.ts';
import { RoleStore } from './auth/role-store.ts';
import { MemoryDefinitionStore } from './memory/definitions/memory-definition-store.ts';
import { MemoryRecordStore } from './memory/records/memory-record-store.ts';
import { InboxStore } from './inbox/inbox-store.ts';
import { SourceStore } from './sources/source-store.ts';
import { ChangeNoticeSync } from './db/change-notice-sync.ts';
import { SourceCache } from './sources/source-cache.ts';
import { SOURCE_CHANGES } from './sources/source-changes.ts';
import { WORKFLOW_CHANGES } from './workflows/storage/workflow-changes.ts';
import { WorkflowVersionCache } from './workflows/storage/workflow-version-cache.ts';
import { ChannelStateStore } from './channels/channel-state-store.ts';
import { ChannelSync } from './channels/channel-sync.ts';
import { AttachmentService, attachmentOptionsWithDefaults, type AttachmentOptions } from './attachments/attachment-service.ts';
import { InboundAttachmentIntake } from './attachments/inbound-attachment-intake.ts';
import { inboundFileLimitsFrom, type InboundFileLimits } from './attachments/inbound-file-limits.ts';
import { InboundFileQuota, inboundBytesIn } from './attachments/inbound-file-quota.ts';
import { InboundFileSweeper } from './attachments/inbound-file-sweeper.ts';
import { WorkflowStore } from './workflows/storage/workflow-store.ts';
import { configSchema } from './config/config.schema.ts';
import { MessageHistory } from './conversations/message-history.ts';
import { SubscriberStore } from './conversations/subscriber-store.ts';
import { ConversationEntry } from './conversations/conversation-entry.ts';
import { InboundEventProcessor } from './dispatch/inbound-event-processor.ts';
import { createWorkflowRunner } from './workflows/create-workflow-runner.ts';
import { createModelResolver } from './workflows/models/model-resolver.ts';
import type { ModelResolver } from './workflows/runtime/action.ts';
import type { WorkflowRunner } from './workflows/runtime/workflow-runner.ts';
import { createWebChat, type WebChat, type WebChatOptions } from './websockets/create-web-chat.ts';
import { HostMetrics } from './metrics/host-metrics.ts';
import { ChannelEgress } from './egress/channel-egress.ts';
import { EgressClient, type EgressClientOptions } from './egress/egress-client.ts';
import { egressLimitsFrom } from './egress/egress-limits.ts';
import { readHostProvidedVersions } from './channels/discovery/host-provided-versions.ts';
import { ChannelPackageService, type InstallPolicy } from './channels/packages/channel-package-service.ts';
import { ChannelPackageStore } from './channels/packages/channel-package-store.ts';
import { extractChannelPackage } from './channels/packages/extract-channel-package.ts';
import { fetchChannelPackage, packageFromUpload, type RegistrySettings } from './channels/packages/fetch-channel-package.ts';
import { InstalledPackages } from './channels/packages/installed-packages.ts';
import type { InstallRules } from './channels/packages/install-policy.ts';

/** The long-lived objects the routes and background jobs share, built from the database. */
export interface Services {
  db: Knex;
  logger: Logger;
  roles: RoleStore;
  loginLinks: LoginLinks;
  memoryDefinitions: MemoryDefinitionStore;
  memoryRecords: MemoryRecordStore;
  /** Discovered channels; empty until `channels.load()` runs (main does it before listening). */
  channels: ChannelRegistry<ChannelCalls>;
  /** Operators' enable/disable choices, shared by every instance through Postgres. */
  channelStates: ChannelStateStore;
  /** Applies other instances' channel changes here; not listening until `start()` (main starts it). */
  channelSync: ChannelSync;
  /** The channel packages the host installs itself, converged on every instance before each discovery. */
  channelPackages: ChannelPackageService;
  sources: SourceStore;
  /** Sources by webhook ref, in memory; every write through `sources` drops its copy at once. */
  sourceCache: SourceCache;
  /** Drops copies that other instances' writes made stale; not listening until `start()` (main starts it). */
  sourceCacheSync: ChangeNoticeSync;
  /** Keeps the dispatcher's cache of current workflow versions in step with other instances (started by main). */
  workflowCacheSync: ChangeNoticeSync;
  inbox: InboxStore;
  /** Attachment files, download tokens and the links plugins ask for. */
  attachments: AttachmentService;
  /** Each source's room for the files subscribers send (BOT_INBOUND_FILES_MAX_MB_PER_SOURCE), as the intake uses it. */
  inboundFileQuota: InboundFileQuota;
  /** Deletes inbound files past BOT_INBOUND_FILES_RETENTION_DAYS; not running until `start()` (main starts it). */
  inboundFileSweeper: InboundFileSweeper;
  /** Workflows and their versions, validated on every save. */
  workflows: WorkflowStore;
  /** Runs workflows (live runs from the dispatcher, test runs from the admin API). */
  runner: WorkflowRunner;
  /** Takes claimed inbound events to their end; the dispatcher calls it. */
  inboundEvents: InboundEventProcessor;
  /** Live chat: sessions, their tokens, and the delivery of WebSocket channels' replies (not listening until `webChat.hub.start()`). */
  webChat: WebChat;
  /** Prometheus metrics, served at `/metrics`. */
  metrics: HostMetrics;
  /** Performs plugins' `fetch` under the egress rules; main closes it after the channels. */
  egress: EgressClient;
  /** What start-up still finishes in the background; `/health/ready` answers 503 while anything is held. */
  readiness: StartupReadiness;
}

/** How workflows run; main passes the configured values, tests take the defaults or shorten them. */
export interface WorkflowServiceOptions {
  models: ModelResolver;
  expressionTimeoutMs: number;
  threadInactivityMs: number;
  dispatchMaxAttempts: number;
  /** BOT_DISPATCH_LEASE_MS: also how long an event's claim holds. */
  dispatchLeaseMs: number;
}

export interface ServiceOptions {
  db: Knex;
  logger: Logger;
  /** Injected so tests can move time (TTL expiry, login link expiry) without sleeping. */
  now?: () => Date;
  /** Where channels are discovered and how their sandboxes run; defaults suit tests. */
  channels?: Partial<Omit<ChannelRegistryOptions, 'logger' | 'hostServicesFor'>>;
  /** Attachment downloads; main passes all of it. The defaults (a temp folder, a random secret) suit tests only. */
  attachments?: Partial<AttachmentOptions>;
  /** The quota and retention of the files subscribers send: main passes the configured ones; tests shorten them. */
  inboundFiles?: Partial<InboundFileLimits>;
  workflows?: Partial<WorkflowServiceOptions>;
  /** Live chat session tokens; main passes the secret, tests take a random one. */
  webChat?: Partial<WebChatOptions>;
  /** Also export the process's own metrics (CPU, memory, event loop): main does; tests need not. */
  processMetrics?: boolean;
  /** Plugins' egress: main passes the BOT_EGRESS_* limits; tests may also point names at local listeners. */
  egress?: Partial<EgressClientOptions>;
  /** Channel packages the host installs (BOT_CHANNEL_*): main passes them; without, installing is off. */
  channelPackages?: { storeDir: string; policy: InstallPolicy; rules?: InstallRules; registry: RegistrySettings; declarative?: boolean };
}

/** Where a host that installs nothing keeps nothing: discovery finds no folder there. */
const NO_PACKAGE_STORE = '/nonexistent/bot-channel-packages';

const HOST_ROOT = new URL('..', import.meta.url).pathname;


export function createServices({ db, logger, now = () => new Date(), channels = {}, attachments = {}, inboundFiles = {}, workflows = {}, webChat: webChatOptions = {}, processMetrics = false, egress = {}, channelPackages: packageOptions }: ServiceOptions): Services {
  const workflowOptions = { ...workflowDefaults(), ...workflows };
  const metrics = new HostMetrics(db, { processMetrics });
  const egressClient = new EgressClient({ limits: egressLimitsFrom(), ...egress });
  const channelEgress = new ChannelEgress({
    client: egressClient,
    channels: { get: (name) => channelRegistry.get(name) },
    sources: { get: (id) => sourceCache.getById(id) },
    countRefused: (channel, code) => metrics.egressRefused.inc({ channel, code }),
    logger: logger.child({ component: 'egress' }),
  });
  const channelStates = new ChannelStateStore(db);
  const webChat = createWebChat({ db, logger, now, ...webChatOptions });
  const hostRoot = channels.hostRoot ?? HOST_ROOT;
  const providedVersions = readHostProvidedVersions(hostRoot);
  const packageStore = new ChannelPackageStore({ dir: packageOptions?.storeDir ?? NO_PACKAGE_STORE, hostRoot, providedPeers: Object.keys(providedVersions), extract: (tarball, destination, limits) => extractChannelPackage(tarball, destination, limits) });
  const channelPackages = new ChannelPackageService({
    installed: new InstalledPackages(db, channelStates.instanceId),
    store: packageStore,
    policy: packageOptions?.policy ?? 'off',
    declarative: packageOptions?.declarative ?? false,
    ...(packageOptions?.rules ? { rules: packageOptions.rules } : {}),
    now,
    registry: packageOptions?.registry ?? { url: 'https://registry.npmjs.org/' },
    providedVersions,
    hostRoot,
    rescan: () => channelRegistry.rescan(),
    trial: (file) => channelRegistry.trial(file),
    registered: () => channelRegistry.registered(),
    diagnostics: () => channelRegistry.diagnostics(),
    fetch: fetchChannelPackage,
    fromUpload: packageFromUpload,
  });
  const channelRegistry = createChannelRegistry({
    appRoot: channels.appRoot ?? HOST_ROOT,
    hostRoot,
    ...(packageOptions ? { storeDir: packageOptions.storeDir, prepare: () => channelPackages.converge() } : {}),
    sandbox: { ...(channels.sandbox ?? sandboxSettingsFrom()), frameDelivery: webChat.hub },
    hostServicesFor: (channelName) => ({ ...attachmentService.hostServicesFor(channelName), fetch: channelEgress.fetchFor(channelName) }),
    states: channelStates,
    onRunnerExit: (channel) => metrics.channelRunnerRestarts.inc({ channel }),
    logger,
  });
  const sourceCache: SourceCache = new SourceCache({ load: (ref) => sources.findByRef(ref), loadById: (id) => sources.findById(id), now: () => now().getTime() });
  const sourceCacheSync = new ChangeNoticeSync(SOURCE_CHANGES, { db, cache: sourceCache, instanceId: channelStates.instanceId, logger });
  const sources = new SourceStore(db, channelRegistry, now, sourceCacheSync);
  const attachmentService = new AttachmentService(sources, { now, ...attachmentOptionsWithDefaults(attachments) });
  const inboundFileLimits = { ...inboundFileLimitsFrom(), ...inboundFiles };
  const inboundFileQuota = new InboundFileQuota({
    maxBytes: inboundFileLimits.maxBytesPerSource,
    count: inboundBytesIn(attachmentService.store),
  });
  const inboundFileSweeper = new InboundFileSweeper({
    store: attachmentService.store,
    quota: inboundFileQuota,
    retentionMs: inboundFileLimits.retentionMs,
    intervalMs: inboundFileLimits.sweepIntervalMs,
    now,
    logger: logger.child({ component: 'attachments' }),
  });
  const memoryDefinitions = new MemoryDefinitionStore(db, { now });
  const memoryRecords = new MemoryRecordStore(db, { now, logger });
  const workflowVersions: WorkflowVersionCache = new WorkflowVersionCache({ load: (id) => workflowStore.currentVersion(id), now: () => now().getTime() });
  const workflowCacheSync = new ChangeNoticeSync(WORKFLOW_CHANGES, { db, cache: workflowVersions, instanceId: channelStates.instanceId, logger });
  const workflowStore = new WorkflowStore(db, memoryDefinitions, { now, changes: workflowCacheSync });
  const history = new MessageHistory(db);
  const runner = createWorkflowRunner({ db, now, memoryRecords, models: workflowOptions.models, expressionTimeoutMs: workflowOptions.expressionTimeoutMs });
  const inboundEvents = new InboundEventProcessor({
    db,
    channels: channelRegistry,
    workflows: workflowStore,
    sources: sourceCache,
    workflowVersions,
    subscribers: new SubscriberStore(db),
    conversations: new ConversationEntry(db, { now, inactivityMs: workflowOptions.threadInactivityMs }),
    history,
    runner,
    outbox: { channels: channelRegistry, now, logger, countSend: (result) => metrics.sends.inc({ result }) },
    countAttempt: (outcome) => metrics.eventAttempts.inc({ outcome }),
    attachments: new InboundAttachmentIntake({
      kindOf: (channel) => channelRegistry.get(channel)?.description.kind,
      locate: (channel, event, source) => channelRegistry.call(channel, (calls) => calls.messageAttachments(event, source)),
      fetch: (channel, request) => channelEgress.performFor(channel, request),
      store: attachmentService.store,
      quota: inboundFileQuota,
      publicUrl: (channel, sourceId, name) => attachmentService.publicUrl(channel, sourceId, name),
      logger: logger.child({ component: 'attachments' }),
    }),
    endRunMemory: (runId) => memoryRecords.endRun(runId),
    claimTimeoutMs: workflowOptions.dispatchLeaseMs,
    maxAttempts: workflowOptions.dispatchMaxAttempts,
    logger,
  });
  return {
    db,
    logger,
    roles: new RoleStore(db),
    loginLinks: new LoginLinks(db, now),
    memoryDefinitions,
    memoryRecords,
    channels: channelRegistry,
    channelStates,
    channelSync: new ChannelSync({ db, registry: channelRegistry, instanceId: channelStates.instanceId, logger }),
    channelPackages,
    sources,
    sourceCache,
    sourceCacheSync,
    workflowCacheSync,
    inbox: new InboxStore(db, now, { notify: true }),
    attachments: attachmentService,
    inboundFileQuota,
    inboundFileSweeper,
    workflows: workflowStore,
    runner,
    inboundEvents,
    webChat,
    metrics,
    egress: egressClient,
    readiness: new StartupReadiness(),
  };
}

/** The configuration defaults, and the offline-capable model resolver without API keys. */
function workflowDefaults(): WorkflowServiceOptions {
  const config = configSchema.parse({});
  return {
    models: createModelResolver({ config, namedApiKeys: new Map() }),
    expressionTimeoutMs: config.BOT_WORKFLOW_EXPRESSION_TIMEOUT_MS,
    threadInactivityMs: config.BOT_THREAD_INACTIVITY_MS,
    dispatchMaxAttempts: config.BOT_DISPATCH_MAX_ATTEMPTS,
    dispatchLeaseMs: config.BOT_DISPATCH_LEASE_MS,
  };
}
