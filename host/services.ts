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
  sources: SourceStore;
  inbox: InboxStore;
}

export interface ServiceOptions {
  db: Knex;
  logger: Logger;
  /** Injected so tests can move time (TTL expiry, login link expiry) without sleeping. */
  now?: () => Date;
  /** Where channels are discovered and how their sandboxes run; defaults suit tests. */
  channels?: Partial<Omit<ChannelRegistryOptions, 'logger' | 'hostServicesFor'>>;
}

const HOST_ROOT = new URL('..', import.meta.url).pathname;


export function createServices({ db, logger, now = () => new Date(), channels = {} }: ServiceOptions): Services {
  const channelRegistry = createChannelRegistry({
    appRoot: channels.appRoot ?? HOST_ROOT,
    hostRoot: channels.hostRoot ?? HOST_ROOT,
    sandbox: channels.sandbox ?? sandboxSettingsFrom(),
    hostServicesFor: () => ({
      getAttachmentPublicUrl: () => Promise.reject(new Error('Attachment downloads are not available on this host yet')),
    }),
    logger,
  });
  return {
    db,
    logger,
    roles: new RoleStore(db),
    loginLinks: new LoginLinks(db, now),
    memoryDefinitions: new MemoryDefinitionStore(db, { now }),
    memoryRecords: new MemoryRecordStore(db, { now, logger }),
    channels: channelRegistry,
    sources: new SourceStore(db, channelRegistry, now),
    inbox: new InboxStore(db, now),
  };
}
