import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { writeAndNotify, type ChangeListener } from '../db/change-notice-sync.ts';
import { AppError } from '../errors/app-error.ts';
import { PG_UNIQUE_VIOLATION, pgErrorCode } from '../errors/postgres-errors.ts';
import { fetchSortedPage, isUuid } from '../db/fetch-sorted-page.ts';
import { likePattern, type Page } from '../http/list-query.ts';
import { isStorableText } from '../json/find-unstorable-text.ts';
import { egressGrantsOnCreate, egressGrantsOnPatch } from './egress-grants.ts';
import { mergeSettingsPatch } from './merge-settings-patch.ts';
import { keepStoredSecrets } from './secret-settings.ts';
import type { ChannelSettingsSchemas, SourceRow } from './source.ts';
import { validateSourceSettings } from './validate-source-settings.ts';
import { checkSecretsOnEndpointMove } from './secrets-on-endpoint-move.ts';

const SORT_SQL = { name: 'lower(name)', channel: 'channel', createdAt: 'created_at', updatedAt: 'updated_at' } as const;
export const SOURCE_SORTS = Object.keys(SORT_SQL) as [keyof typeof SORT_SQL, ...(keyof typeof SORT_SQL)[]];

export interface SourceInput {
  name: string;
  channel: string;
  settings?: Record<string, unknown>;
  active?: boolean;
  defaultWorkflowId?: string | null;
  /**
   * A fixed ref instead of a random one: only the dev seed passes one, so that its sample source
   * has a webhook URL the README can print. The admin API's body schema has no such field.
   */
  ref?: string;
}

export type SourcePatch = Partial<Omit<SourceInput, 'channel' | 'ref'>>;

/** Told of every write to a source, with its ref, so that copies of it (SourceCache) can be dropped. */
export type SourceChangeListener = ChangeListener;

/** Sources in Postgres, with settings checked against their channel's published schema. */
export class SourceStore {
  constructor(
    private readonly db: Knex,
    private readonly channels: ChannelSettingsSchemas,
    private readonly now: () => Date,
    private readonly changes?: SourceChangeListener,
  ) {}

  async list({ q, sort = 'name', limit = 50, offset = 0 }: { q?: string; sort?: string; limit?: number; offset?: number }): Promise<Page<SourceRow>> {
    const filtered = this.db('sources').modify((query) => {
      if (q) query.where((where) => where.whereILike('name', likePattern(q)).orWhereILike('channel', likePattern(q)));
    });
    return fetchSortedPage<SourceRow>(filtered, { sortSql: SORT_SQL, fallback: SORT_SQL.name, sort, limit, offset });
  }

  async get(id: string): Promise<SourceRow> {
    const row = await this.findById(id);
    if (!row) throw new AppError('BOT_ERR_SOURCE_NOT_FOUND', `No source has the id "${id}"`, { id });
    return row;
  }

  /** The source with this id, or undefined (also for a string that is not a uuid). */
  async findById(id: string): Promise<SourceRow | undefined> {
    return isUuid(id) ? this.db<SourceRow>('sources').where({ id }).first() : undefined;
  }

  /**
   * The source a webhook URL names, or undefined; webhooks read it through a SourceCache. A ref
   * with a NUL or an unpaired surrogate names none (PostgreSQL would refuse it as a parameter).
   */
  async findByRef(ref: string): Promise<SourceRow | undefined> {
    if (!isStorableText(ref)) return undefined;
    return this.db<SourceRow>('sources').where({ ref }).first();
  }

  /** Settings the channel marks `x-egress` and the input gives are granted egress (egressGrantsOnCreate). */
  async create(input: SourceInput): Promise<SourceRow> {
    const schema = this.#schemaOf(input.channel);
    const settings = validateSourceSettings(schema, input.settings ?? {});
    await this.#checkWorkflow(input.defaultWorkflowId);
    const now = this.now();
    return this.#write((db) =>
      db('sources')
        .insert({
          ref: input.ref ?? randomBytes(18).toString('base64url'),
          name: input.name,
          channel: input.channel,
          settings: JSON.stringify(settings),
          egress_grants: JSON.stringify(egressGrantsOnCreate(schema, input.settings ?? {}, settings)),
          active: input.active ?? true,
          default_workflow_id: input.defaultWorkflowId ?? null,
          created_at: now,
          updated_at: now,
        })
        .returning<SourceRow[]>('*')
        .then(([inserted]) => inserted!)
        .catch((error: unknown) => rethrowNameTaken(error, input.name)),
    );
  }

  /**
   * Settings merge key by key over the stored ones (`null` returns a key to its default);
   * secrets sent back masked, or left out, keep their stored values, except when the patch moves
   * an endpoint setting to another origin (checkSecretsOnEndpointMove). The egress grants follow
   * the settings the patch gives (egressGrantsOnPatch); a patch without settings keeps them.
   */
  async update(id: string, patch: SourcePatch, secretKeysOf: (channel: string) => string[]): Promise<SourceRow> {
    const current = await this.get(id);
    const changes: Record<string, unknown> = { updated_at: this.now() };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.active !== undefined) changes.active = patch.active;
    if (patch.defaultWorkflowId !== undefined) {
      await this.#checkWorkflow(patch.defaultWorkflowId);
      changes.default_workflow_id = patch.defaultWorkflowId;
    }
    if (patch.settings !== undefined) {
      const schema = this.#schemaOf(current.channel);
      const secrets = secretKeysOf(current.channel);
      // Masks are swapped for the stored secrets first, so that a secret sent as null is cleared.
      const merged = mergeSettingsPatch(current.settings, keepStoredSecrets(patch.settings, current.settings, secrets));
      const settings = validateSourceSettings(schema, merged);
      checkSecretsOnEndpointMove(schema, current.settings, settings, patch.settings, secrets);
      changes.settings = JSON.stringify(settings);
      changes.egress_grants = JSON.stringify(egressGrantsOnPatch(schema, patch.settings, secrets, settings, current));
    }
    return this.#write((db) =>
      db('sources')
        .where({ id })
        .update(changes)
        .returning<SourceRow[]>('*')
        .then(([updated]) => updated!)
        .catch((error: unknown) => rethrowNameTaken(error, patch.name ?? current.name)),
    );
  }

  /**
   * A default workflow must name one that exists, or events would be skipped for good (a
   * workflow deleted later leaves them skipped with that reason, visible in the inbox).
   */
  async #checkWorkflow(workflowId: string | null | undefined): Promise<void> {
    if (workflowId === null || workflowId === undefined) return;
    const found = isUuid(workflowId) && (await this.db('workflows').where({ id: workflowId }).first('id'));
    if (!found) throw new AppError('BOT_ERR_SOURCE_WORKFLOW_UNKNOWN', `No workflow has the id "${workflowId}"`, { field: 'defaultWorkflowId' });
  }

  async delete(id: string): Promise<void> {
    const deleted = isUuid(id)
      ? await this.#write((db) => db('sources').where({ id }).delete().returning<Pick<SourceRow, 'ref'>[]>('ref').then(([row]) => row))
      : undefined;
    if (!deleted) throw new AppError('BOT_ERR_SOURCE_NOT_FOUND', `No source has the id "${id}"`, { id });
  }

  /** A write and its change notice (with the source's ref), see writeAndNotify. */
  #write<T extends Pick<SourceRow, 'ref'> | undefined>(write: (db: Knex.Transaction) => Promise<T>): Promise<T> {
    return writeAndNotify(this.db, this.changes, write, (row) => row?.ref);
  }

  #schemaOf(channel: string): Record<string, unknown> {
    const schema = this.channels.settingsSchemaOf(channel);
    if (!schema) throw new AppError('BOT_ERR_SOURCE_CHANNEL_UNKNOWN', `No registered channel is named "${channel}"`, { field: 'channel' });
    return schema;
  }
}

function rethrowNameTaken(error: unknown, name: string): never {
  if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
    throw new AppError('BOT_ERR_SOURCE_NAME_TAKEN', `A source is already named "${name}"`, { field: 'name' }, { cause: error });
  }
  throw error;
}
