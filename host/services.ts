import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { LoginLinks } from './auth/login-links.ts';
import type { ChannelRegistry } from './channels/channel-registry.ts';
import { createChannelRegistry, type ChannelRegistryOptions } from './channels/create-channel-registry.ts';
import { sandboxSettingsFrom } from './channels/sandbox-settings-from-config.ts';
import type { ChannelSandbox } from './channels/sandbox/channel-sandbox.ts';
import { RoleStore } from './auth/role-store.ts';
import { MemoryDefinitionStore } from './memory/definitions/memory-definition-store.ts';
import { MemoryRecordStore } from './memory/records/memory-record-store.ts';
import { InboxStore } from './inbox/inbox-store.ts';
import { SourceStore } from './sources/source-store.ts';
import { ChannelStateStore } from './channels/channel-state-store.ts';
import { ChannelSync } from './channels/channel-sync.ts';
import { AttachmentService, attachmentOptionsWithDefaults, type AttachmentOptions } from './attachments/attachment-service.ts';

/** The long-lived objects the routes and background jobs share, built from the database. */
export interface Services {
  db: Knex;
  logger: Logger;
  roles: RoleStore;
  loginLinks: LoginLinks;
  memoryDefinitions: MemoryDefinitionStore;
  memoryRecords: MemoryRecordStore;
  /** Discovered channels; empty until `channels.load()` runs (main does it before listening). */
  channels: ChannelRegistry<ChannelSandbox>;
  /** Operators' enable/disable choices, shared by every instance through Postgres. */
  channelStates: ChannelStateStore;
  /** Applies other instances' channel changes here; not listening until `start()` (main starts it). */
  channelSync: ChannelSync;
  sources: SourceStore;
  inbox: InboxStore;
  /** Attachment files, download tokens and the links plugins ask for. */
  attachments: AttachmentService;
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
}

const HOST_ROOT = new URL('..', import.meta.url).pathname;


export function createServices({ db, logger, now = () => new Date(), channels = {}, attachments = {} }: ServiceOptions): Services {
  const channelStates = new ChannelStateStore(db);
  const channelRegistry = createChannelRegistry({
    appRoot: channels.appRoot ?? HOST_ROOT,
    hostRoot: channels.hostRoot ?? HOST_ROOT,
    sandbox: channels.sandbox ?? sandboxSettingsFrom(),
    hostServicesFor: (channelName) => attachmentService.hostServicesFor(channelName),
    states: channelStates,
    logger,
  });
  const sources = new SourceStore(db, channelRegistry, now);
  const attachmentService = new AttachmentService(sources, { now, ...attachmentOptionsWithDefaults(attachments) });
  return {
    db,
    logger,
    roles: new RoleStore(db),
    loginLinks: new LoginLinks(db, now),
    memoryDefinitions: new MemoryDefinitionStore(db, { now }),
    memoryRecords: new MemoryRecordStore(db, { now, logger }),
    channels: channelRegistry,
    channelStates,
    channelSync: new ChannelSync({ db, registry: channelRegistry, instanceId: channelStates.instanceId, logger }),
    sources,
    inbox: new InboxStore(db, now),
    attachments: attachmentService,
  };
}
