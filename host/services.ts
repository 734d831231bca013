import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { LoginLinks } from './auth/login-links.ts';
import { RoleStore } from './auth/role-store.ts';
import { MemoryDefinitionStore } from './memory/definitions/memory-definition-store.ts';
import { MemoryRecordStore } from './memory/records/memory-record-store.ts';

/** The long-lived objects the routes and background jobs share, built from the database. */
export interface Services {
  db: Knex;
  logger: Logger;
  roles: RoleStore;
  loginLinks: LoginLinks;
  memoryDefinitions: MemoryDefinitionStore;
  memoryRecords: MemoryRecordStore;
}

export interface ServiceOptions {
  db: Knex;
  logger: Logger;
  /** Injected so tests can move time (TTL expiry, login link expiry) without sleeping. */
  now?: () => Date;
}

export function createServices({ db, logger, now = () => new Date() }: ServiceOptions): Services {
  return {
    db,
    logger,
    roles: new RoleStore(db),
    loginLinks: new LoginLinks(db, now),
    memoryDefinitions: new MemoryDefinitionStore(db, { now }),
    memoryRecords: new MemoryRecordStore(db, { now, logger }),
  };
}
