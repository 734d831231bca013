import type { Knex } from 'knex';
import { toMemoryRecord, type MemoryRecord } from './memory-record.ts';
import type { MemoryValueValidator } from './memory-value-validator.ts';
import { assertSlugNames, assertSlugsKnown, buildWriteRows, type MemoryWriteEntry, type WriteDefinition, type WriteRow } from './memory-write-rows.ts';
import { WriteDefinitionCache } from './write-definition-cache.ts';
import { CurrentVersionUpserts, type UpsertCall } from './upsert-if-current.ts';
import { upsertRecords, type UpsertedRow } from './upsert-records.ts';

export interface MemoryRecordWriterOptions {
  now: () => Date;
  validator: MemoryValueValidator;
  cache?: WriteDefinitionCache;
}

/**
 * A write checked against cached definitions and not yet made: another statement commits it with
 * rows of its own (see UPSERT_IF_CURRENT_CTES), then `settlePrepared` says how it went.
 */
export interface PreparedMemoryWrite {
  call: UpsertCall;
  definitions: Map<string, WriteDefinition>;
  slugs: Set<string>;
}

/**
 * Writes memory records, all of a call's entries or none. The usual write is one autocommit
 * statement built from cached definitions that re-checks their versions as it writes, shared
 * with the calls of other owners made at the same time (see CurrentVersionUpserts); when a
 * definition is not cached, has changed or the value fails its cached schema, the write falls
 * back to a transaction that reads the definitions `FOR SHARE` and checks against those. So the
 * cache decides only how fast a write is, never what it writes or which error it raises.
 */
export class MemoryRecordWriter {
  readonly #db: Knex;
  readonly #now: () => Date;
  readonly #validator: MemoryValueValidator;
  readonly #cache: WriteDefinitionCache;
  readonly #upserts: CurrentVersionUpserts;

  constructor(db: Knex, { now, validator, cache = new WriteDefinitionCache() }: MemoryRecordWriterOptions) {
    this.#db = db;
    this.#now = now;
    this.#validator = validator;
    this.#cache = cache;
    this.#upserts = new CurrentVersionUpserts(db);
  }

  async writeBatch(entries: MemoryWriteEntry[]): Promise<MemoryRecord[]> {
    const slugs = new Set(entries.map((entry) => entry.slug));
    assertSlugNames(slugs);
    if (entries.length === 0) return [];
    const now = this.#now();
    return (await this.#writeIfCached(entries, slugs, now)) ?? this.#writeChecked(entries, now);
  }

  /**
   * The fast path's write, built and checked but not made, for a statement that commits it with
   * rows of its own; undefined when the cache cannot build it (then write with writeBatch).
   */
  prepare(entries: MemoryWriteEntry[]): PreparedMemoryWrite | undefined {
    const slugs = new Set(entries.map((entry) => entry.slug));
    assertSlugNames(slugs);
    return entries.length === 0 ? undefined : this.#prepare(entries, slugs, this.#now());
  }

  /**
   * The records a prepared write stored, or undefined when its statement found a definition
   * changed and wrote none of it: the cached definitions are forgotten, and the caller writes
   * again with writeBatch, which checks against the current ones.
   */
  settlePrepared(prepared: PreparedMemoryWrite, written: UpsertedRow[], current: boolean): MemoryRecord[] | undefined {
    if (current) return withSlugs(written, prepared.definitions);
    this.#cache.forget(prepared.slugs);
    return undefined;
  }

  /** The fast path, made at once (shared with other owners' writes); undefined when it could not be taken or found a definition changed. */
  async #writeIfCached(entries: MemoryWriteEntry[], slugs: Set<string>, now: Date): Promise<MemoryRecord[] | undefined> {
    const prepared = this.#prepare(entries, slugs, now);
    if (!prepared) return undefined;
    // A call with rows writes at least one when its definitions are current.
    const written = await this.#upserts.submit(prepared.call);
    return this.settlePrepared(prepared, written, written.length > 0);
  }

  #prepare(entries: MemoryWriteEntry[], slugs: Set<string>, now: Date): PreparedMemoryWrite | undefined {
    const definitions = this.#cache.getAll(slugs);
    if (!definitions) return undefined;
    const rows = this.#tryBuildRows(entries, definitions, now);
    if (!rows) return undefined;
    return { call: { rows, versions: [...definitions.values()].map(({ id, version }) => ({ id, version })), now }, definitions, slugs };
  }

  /**
   * Rows built from cached definitions, or undefined when they refuse the entries: a cached
   * schema or scope may be stale, so only the current definitions may decide the error.
   */
  #tryBuildRows(entries: MemoryWriteEntry[], definitions: Map<string, WriteDefinition>, now: Date): WriteRow[] | undefined {
    try {
      return buildWriteRows(entries, definitions, this.#validator, now);
    } catch {
      return undefined;
    }
  }

  /** The checked path: `FOR SHARE` keeps the definitions as read until the upsert commits. */
  #writeChecked(entries: MemoryWriteEntry[], now: Date): Promise<MemoryRecord[]> {
    return this.#db.transaction((trx) => this.writeCheckedIn(trx, entries, now));
  }

  /**
   * The checked path in the caller's transaction, which may already hold the definitions (FOR
   * SHARE again is no new wait) and the records it writes: every writer takes definitions first,
   * then records, so two writers never wait for each other in a circle.
   */
  async writeCheckedIn(trx: Knex.Transaction, entries: MemoryWriteEntry[], now: Date): Promise<MemoryRecord[]> {
    const slugs = new Set(entries.map((entry) => entry.slug));
    assertSlugNames(slugs);
    const definitions = await readDefinitions(trx, [...slugs]);
    this.#cache.remember(slugs, definitions);
    assertSlugsKnown(slugs, definitions);
    const rows = buildWriteRows(entries, definitions, this.#validator, now);
    return withSlugs(await upsertRecords(trx, rows, now), definitions);
  }
}

async function readDefinitions(trx: Knex.Transaction, slugs: string[]): Promise<Map<string, WriteDefinition>> {
  const rows: WriteDefinition[] = await trx('memory_definitions')
    .select('id', 'slug', 'scope', 'ttl_seconds', 'schema', 'updated_at', trx.raw('updated_at::text AS version'))
    .whereIn('slug', slugs)
    .forShare();
  return new Map(rows.map((row) => [row.slug, row]));
}

function withSlugs(rows: UpsertedRow[], definitions: Map<string, WriteDefinition>): MemoryRecord[] {
  const slugById = new Map([...definitions.values()].map((definition) => [definition.id, definition.slug]));
  return rows.map((row) => toMemoryRecord({ ...row, slug: slugById.get(row.definition_id)! }));
}
