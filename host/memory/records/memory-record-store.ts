import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.ts';
import { likePattern, parseSort, type Page } from '../../http/list-query.ts';
import type { MemorySchema } from '../definitions/memory-definition.ts';
import { toMemoryRecord, type ListedMemoryRecord, type MemoryRecord, type MemoryRecordRow, type MemoryTarget } from './memory-record.ts';
import { MemoryValueValidator, type ValueError } from './memory-value-validator.ts';
import type { MemoryWriteEntry } from './memory-write-rows.ts';
import { MemoryRecordWriter, type PreparedMemoryWrite } from './memory-record-writer.ts';
import type { UpsertedRow } from './upsert-records.ts';
import { LiveRecordsLoader, type LoadedDefinition } from './memory-record-queries.ts';
import { TEST_OWNER_PREFIX } from './test-owner.ts';

export type { MemoryWriteEntry } from './memory-write-rows.ts';

export interface MemoryRecordStoreOptions {
  /** The clock every expiry is computed and compared with; tests move it by hand. */
  now: () => Date;
  logger: Pick<Logger, 'warn'>;
}

/** A stored value that no longer matches its definition's current schema. */
export interface InvalidMemoryRecord {
  slug: string;
  recordId: string;
  errors: ValueError[];
}

export interface MemoryLoadResult {
  /** Valid, unexpired values by slug; a missing record is a missing key. */
  values: Record<string, unknown>;
  invalid: InvalidMemoryRecord[];
}

export interface MemoryLoadOptions {
  /** Workflow, thread and run definitions to load besides the global ones (valid UUIDs). */
  definitionIds?: string[];
  /**
   * Also return the `definitionIds` definitions that still exist, read by the same statement: a
   * run binds its `kind: memory` defs to them without a round trip of its own.
   */
  withDefinitions?: boolean;
}

export interface MemoryLoadWithDefinitions extends MemoryLoadResult {
  /** By id; an id without a definition (deleted since) has no entry. */
  definitions: Map<string, LoadedDefinition>;
}

export interface MemoryRecordListQuery {
  definitionId?: string;
  ownerId?: string;
  /** Real subscribers' records (default) or test owners' (`test:…`), never both in one list. */
  owners?: 'subscribers' | 'test';
  /** Case-insensitive, on the definition slug and the owner id. */
  q?: string;
  /** `updatedAt`, `createdAt`, `expiresAt` or `slug`, `-` first for descending; default `-updatedAt`. */
  sort?: string;
  limit: number;
  offset: number;
}

const SORT_COLUMNS = { updatedAt: 'r.updated_at', createdAt: 'r.created_at', expiresAt: 'r.expires_at', slug: 'd.slug' };
export const MEMORY_RECORD_SORTS = Object.keys(SORT_COLUMNS) as [keyof typeof SORT_COLUMNS, ...(keyof typeof SORT_COLUMNS)[]];

const RECORD_COLUMNS = [
  'r.id', 'r.definition_id', 'd.slug', 'r.owner_id', 'r.workflow_id', 'r.thread_id', 'r.run_id',
  'r.value', 'r.expires_at', 'r.created_at', 'r.updated_at',
];

/** What re-checking a stored value against its definition's current schema needs. */
interface CheckedValue {
  definition_id: string;
  schema: MemorySchema;
  definition_updated_at: Date;
  value: unknown;
}

/**
 * Memory records: schema-checked values per owner and definition scope, written by atomic
 * upserts that replace the whole value, never returned once expired.
 */
export class MemoryRecordStore {
  readonly #db: Knex;
  readonly #now: () => Date;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #validator = new MemoryValueValidator();
  readonly #writer: MemoryRecordWriter;
  readonly #loader: LiveRecordsLoader;

  constructor(db: Knex, { now, logger }: MemoryRecordStoreOptions) {
    this.#db = db;
    this.#now = now;
    this.#logger = logger;
    this.#writer = new MemoryRecordWriter(db, { now, validator: this.#validator });
    this.#loader = new LiveRecordsLoader(db);
  }

  /**
   * Writes complete values for several slugs of one target, all or none.
   * @example await store.write({ ownerId, threadId }, { profile: { name: 'Ada' } })
   */
  write(target: MemoryTarget, values: Record<string, unknown>): Promise<MemoryRecord[]> {
    return this.writeBatch(Object.entries(values).map(([slug, value]) => ({ target, slug, value })));
  }

  /**
   * A write of complete values by slug, checked against the cached definitions but not made: a
   * statement of the caller's commits it with rows of its own (UPSERT_IF_CURRENT_CTES). Undefined
   * when it cannot be prepared so (write it with `write`).
   */
  prepareWrite(target: MemoryTarget, values: Record<string, unknown>): PreparedMemoryWrite | undefined {
    return this.#writer.prepare(Object.entries(values).map(([slug, value]) => ({ target, slug, value })));
  }

  /** What a prepared write stored, or undefined when a definition had changed and nothing was (write again with `write`). */
  settlePreparedWrite(prepared: PreparedMemoryWrite, written: UpsertedRow[], current: boolean): MemoryRecord[] | undefined {
    return this.#writer.settlePrepared(prepared, written, current);
  }

  /**
   * Writes many entries (any targets) with one multi-row upsert, all or none. Concurrent calls
   * for different owners share that statement, each still all or none.
   */
  writeBatch(entries: MemoryWriteEntry[]): Promise<MemoryRecord[]> {
    return this.#writer.writeBatch(entries);
  }

  /**
   * Loads a target's working memory: global definitions always, the others only when listed in
   * `definitionIds` and the target has their scope's id. Invalid values are skipped and reported.
   * One statement, with the definitions too when `withDefinitions` is set, shared by the loads
   * made at the same time. A value written after its definition's last change was checked
   * against that schema when written and is not checked again.
   * @example const { values, definitions } = await store.load(target, { definitionIds, withDefinitions: true })
   */
  load(target: MemoryTarget, options: MemoryLoadOptions & { withDefinitions: true }): Promise<MemoryLoadWithDefinitions>;
  load(target: MemoryTarget, options?: MemoryLoadOptions): Promise<MemoryLoadResult>;
  async load(target: MemoryTarget, { definitionIds = [], withDefinitions = false }: MemoryLoadOptions = {}): Promise<MemoryLoadResult | MemoryLoadWithDefinitions> {
    const { records, definitions } = await this.#loader.load(target, { definitionIds, withDefinitions }, this.#now());
    const result: MemoryLoadResult = { values: {}, invalid: [] };
    for (const row of records) {
      const errors = row.written_under_current_schema ? [] : this.#check(row);
      if (errors.length === 0) result.values[row.slug] = row.value;
      else result.invalid.push({ slug: row.slug, recordId: row.id, errors });
    }
    if (result.invalid.length > 0) {
      this.#logger.warn({ ownerId: target.ownerId, invalid: result.invalid }, 'memory records no longer match their schema; not loaded');
    }
    if (!withDefinitions) return result;
    return { ...result, definitions: new Map(definitions.map((definition) => [definition.id, definition])) };
  }

  /** A page of live records, each saying whether its value still matches the current schema. */
  async list({ definitionId, ownerId, owners = 'subscribers', q, sort = '-updatedAt', limit, offset }: MemoryRecordListQuery): Promise<Page<ListedMemoryRecord>> {
    const query = this.#live().where('r.owner_id', owners === 'test' ? 'like' : 'not like', `${TEST_OWNER_PREFIX}%`);
    if (definitionId) query.where('r.definition_id', definitionId);
    if (ownerId) query.where('r.owner_id', ownerId);
    if (q) query.where((where) => where.whereILike('d.slug', likePattern(q)).orWhereILike('r.owner_id', likePattern(q)));
    const { field, direction } = parseSort(sort);
    const column = SORT_COLUMNS[field as keyof typeof SORT_COLUMNS] ?? SORT_COLUMNS.updatedAt;
    const [counted] = await query.clone().count<{ total: number }[]>({ total: '*' });
    const rows: (MemoryRecordRow & CheckedValue)[] = await query
      .select([...RECORD_COLUMNS, 'd.schema', 'd.updated_at as definition_updated_at'])
      // NULLS LAST: permanent records (no expiry) after those that expire, in either direction.
      .orderByRaw(`${column} ${direction} NULLS LAST, r.id ${direction}`)
      .limit(limit)
      .offset(offset);
    return { items: rows.map((row) => this.#withValidity(row)), total: counted?.total ?? 0 };
  }

  async get(id: string): Promise<MemoryRecord> {
    const row: MemoryRecordRow | undefined = await this.#live().where('r.id', id).first(RECORD_COLUMNS);
    if (!row) throw recordNotFound(id);
    return toMemoryRecord(row);
  }

  /**
   * An operator's edit of one record: the whole value replaced, checked against the definition's
   * current schema, the expiry restarted, the record's identity kept. The record is locked before
   * it is written, so a delete or an erasure racing the edit either lands first (the edit finds
   * nothing: not found, nothing written) or waits and deletes the edited record. Without the lock
   * the edit's upsert would insert the record again once the delete committed: an erased
   * subscriber's data brought back by an edit that started before the erasure.
   * @example await store.replaceValue(record.id, { name: 'Ada' })
   */
  async replaceValue(id: string, value: unknown): Promise<MemoryRecord> {
    const record = await this.get(id);
    const target: MemoryTarget = {
      ownerId: record.ownerId,
      ...(record.workflowId ? { workflowId: record.workflowId } : {}),
      ...(record.threadId ? { threadId: record.threadId } : {}),
      ...(record.runId ? { runId: record.runId } : {}),
    };
    const [written] = await this.#db.transaction(async (trx) => {
      // The definition first, as every writer takes it, then the record: no circle of waits.
      await trx('memory_definitions').where('id', record.definitionId).forShare().first('id');
      const locked: { expires_at: Date | null } | undefined = await trx('memory_records').where('id', id).forUpdate().first('expires_at');
      // Read once the lock is held, for the liveness test and the write alike: a record that
      // expired while the edit waited is gone (the upsert would otherwise keep its identity).
      const now = this.#now();
      if (!locked || (locked.expires_at !== null && locked.expires_at <= now)) throw recordNotFound(id);
      return this.#writer.writeCheckedIn(trx, [{ target, slug: record.slug, value }], now);
    });
    return written!;
  }

  async delete(id: string): Promise<void> {
    const deleted = await this.#db('memory_records')
      .where('id', id)
      .where((where) => where.whereNull('expires_at').orWhere('expires_at', '>', this.#now()))
      .delete();
    if (deleted === 0) throw recordNotFound(id);
  }

  /** Right to be forgotten: deletes every record of the owner, expired ones included. */
  eraseOwner(ownerId: string): Promise<number> {
    return this.#db('memory_records').where('owner_id', ownerId).delete();
  }

  /** Deletes the run-scope records of a finished run (success or failure). */
  async endRun(runId: string): Promise<number> {
    const result = await this.#db.raw<{ rowCount: number }>(
      `DELETE FROM memory_records r USING memory_definitions d
        WHERE r.run_id = ? AND d.id = r.definition_id AND d.scope = 'run'`,
      [runId],
    );
    return result.rowCount;
  }

  /** Records joined with their definition, unexpired at the injected clock's now. */
  #live(): Knex.QueryBuilder {
    const now = this.#now();
    return this.#db('memory_records as r')
      .join('memory_definitions as d', 'd.id', 'r.definition_id')
      .where((where) => where.whereNull('r.expires_at').orWhere('r.expires_at', '>', now));
  }

  #withValidity(row: MemoryRecordRow & CheckedValue): ListedMemoryRecord {
    const errors = this.#check(row);
    return { ...toMemoryRecord(row), valid: errors.length === 0, ...(errors.length > 0 && { errors }) };
  }

  #check(row: CheckedValue): ValueError[] {
    const definition = { id: row.definition_id, updatedAt: row.definition_updated_at.toISOString(), schema: row.schema };
    try {
      return this.#validator.check(definition, row.value);
    } catch (error) {
      // A schema ajv cannot compile makes the record unloadable, not the caller's run fail.
      return [{ path: '/', message: `the schema does not compile: ${error instanceof Error ? error.message : String(error)}` }];
    }
  }
}

function recordNotFound(id: string): AppError {
  return new AppError('BOT_ERR_MEMORY_RECORD_NOT_FOUND', `No live memory record has id ${id}`, { id });
}
