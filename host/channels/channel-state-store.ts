import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ChannelDescription } from './discovery/discovered-channel.ts';

/** The Postgres notification channel every host instance listens on for channel changes. */
export const CHANNEL_CHANGES = 'bot_channel_changes';

/** What one instance tells the others: enabled states changed, or the plugins on disk did. */
export interface ChannelChangeNotice {
  event: 'states' | 'rescan';
  /** The instance that made the change, which has applied it already. */
  from: string;
}

/** What a channel declared when its state was saved: enough to list it without running it. */
export interface ChannelDeclaration {
  /** The channel file as discovered under the app root. */
  file: string;
  fingerprint: string;
  description: ChannelDescription;
}

/**
 * The enabled state of each channel, kept in Postgres so it survives restarts and reaches every
 * instance: each change is committed together with a NOTIFY, so a listener that hears it reads
 * the committed state.
 */
export class ChannelStateStore {
  /** Identifies this host instance in the notices it sends. */
  readonly instanceId = randomUUID();

  constructor(private readonly db: Knex) {}

  /** Explicit choices by channel name; a channel absent from the map is enabled. */
  async enabledStates(): Promise<Map<string, boolean>> {
    const rows: { name: string; enabled: boolean }[] = await this.db('channel_states').select('name', 'enabled');
    return new Map(rows.map((row) => [row.name, row.enabled]));
  }

  /** The declarations of disabled channels, by file: discovery lists these without importing them. */
  async disabledDeclarations(): Promise<Map<string, ChannelDeclaration & { name: string }>> {
    const rows: Array<{ name: string; file: string; fingerprint: string; description: ChannelDescription }> = await this.db('channel_states')
      .select('name', 'file', 'fingerprint', 'description')
      .where({ enabled: false })
      .whereNotNull('file')
      .whereNotNull('description');
    return new Map(rows.map((row) => [row.file, { name: row.name, file: row.file, fingerprint: row.fingerprint, description: row.description }]));
  }

  async save(name: string, enabled: boolean, updatedBy: string, declaration?: ChannelDeclaration): Promise<void> {
    const declared = declaration
      ? { file: declaration.file, fingerprint: declaration.fingerprint, description: JSON.stringify(declaration.description) }
      : {};
    await this.db.transaction(async (trx) => {
      await trx('channel_states')
        .insert({ name, enabled, updated_by: updatedBy, updated_at: trx.fn.now(), ...declared })
        .onConflict('name')
        .merge();
      await this.#notify(trx, 'states');
    });
  }

  /** Asks the other instances to rescan their plugins (after an upgrade deployed to every host). */
  announceRescan(): Promise<void> {
    return this.#notify(this.db, 'rescan');
  }

  async #notify(db: Knex | Knex.Transaction, event: ChannelChangeNotice['event']): Promise<void> {
    const notice: ChannelChangeNotice = { event, from: this.instanceId };
    await db.raw('SELECT pg_notify(?, ?)', [CHANNEL_CHANGES, JSON.stringify(notice)]);
  }
}
