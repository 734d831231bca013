import type { Knex } from 'knex';
import { AppError } from '../../errors/app-error.ts';
import { PG_UNIQUE_VIOLATION, pgConstraint, pgErrorCode } from '../../errors/postgres-errors.ts';
import { fetchSortedPage, isUuid } from '../../db/fetch-sorted-page.ts';
import { likePattern, type Page } from '../../http/list-query.ts';
import { toMemoryDefinition, type MemoryDefinition, type MemoryDefinitionRow, type MemoryScope } from './memory-definition.ts';
import {
  checkCreateInput,
  checkPatch,
  type DefinitionColumns,
  type MemoryDefinitionInput,
  type MemoryDefinitionPatch,
} from './memory-definition-input.ts';
import { isValidSlug, slugify } from './slugify.ts';
import { workflowsBindingDefinition } from '../../workflows/storage/workflow-references.ts';

const TABLE = 'memory_definitions';

/** Sortable fields and the SQL each sorts by; names sort case-insensitively, as people read them. */
const SORT_SQL = {
  name: 'lower(name)',
  slug: 'slug',
  scope: 'scope',
  ttlSeconds: 'ttl_seconds',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const;
export const MEMORY_DEFINITION_SORTS = Object.keys(SORT_SQL) as [keyof typeof SORT_SQL, ...(keyof typeof SORT_SQL)[]];

export interface MemoryDefinitionListQuery {
  /** Case-insensitive, literal match on name or slug. */
  q?: string;
  scope?: MemoryScope;
  /** `field` or `-field`, a field of {@link MEMORY_DEFINITION_SORTS}. */
  sort?: string;
  limit?: number;
  offset?: number;
}

export interface SlugCheck {
  slug: string;
  valid: boolean;
  available: boolean;
}

/** Memory definitions in Postgres: the contract every memory record is validated against. */
export class MemoryDefinitionStore {
  readonly #db: Knex;
  readonly #now: () => Date;

  constructor(db: Knex, options: { now: () => Date }) {
    this.#db = db;
    this.#now = options.now;
  }

  async list({ q, scope, sort = 'name', limit = 50, offset = 0 }: MemoryDefinitionListQuery = {}): Promise<Page<MemoryDefinition>> {
    const filtered = this.#db(TABLE).modify((query) => {
      if (scope) query.where({ scope });
      if (q) query.where((where) => where.whereILike('name', likePattern(q)).orWhereILike('slug', likePattern(q)));
    });
    const page = await fetchSortedPage<MemoryDefinitionRow>(filtered, { sortSql: SORT_SQL, fallback: SORT_SQL.name, sort, limit, offset });
    return { items: page.items.map(toMemoryDefinition), total: page.total };
  }

  /** Throws BOT_ERR_MEMORY_DEFINITION_NOT_FOUND when no definition has this id. */
  async get(id: string): Promise<MemoryDefinition> {
    const row = isUuid(id) ? await this.#db<MemoryDefinitionRow>(TABLE).where({ id }).first() : undefined;
    if (!row) throw notFound(id);
    return toMemoryDefinition(row);
  }

  /**
   * The definitions with these slugs; unknown slugs are simply absent from the result.
   * `transaction` reads inside it (a caller holding a transaction must not wait for a second
   * pooled connection).
   */
  async findBySlugs(slugs: readonly string[], options: { transaction?: Knex.Transaction } = {}): Promise<MemoryDefinition[]> {
    if (slugs.length === 0) return [];
    const rows = await (options.transaction ?? this.#db)<MemoryDefinitionRow>(TABLE).whereIn('slug', [...slugs]);
    return rows.map(toMemoryDefinition);
  }

  /**
   * The definitions with these ids, in one query; unknown ids (and strings that are no uuid) are
   * absent from the result. With `lockIn`, the rows are read in that transaction and locked
   * `FOR KEY SHARE` until it ends: a workflow save that binds them cannot race a slug change or
   * a delete, which lock them `FOR UPDATE` and then look for bindings.
   */
  async findByIds(ids: readonly string[], options: { lockIn?: Knex.Transaction } = {}): Promise<MemoryDefinition[]> {
    const uuids = [...new Set(ids)].filter(isUuid);
    if (uuids.length === 0) return [];
    const query = (options.lockIn ?? this.#db)<MemoryDefinitionRow>(TABLE).whereIn('id', uuids);
    const rows = await (options.lockIn ? query.forKeyShare() : query);
    return rows.map(toMemoryDefinition);
  }

  async create(input: MemoryDefinitionInput): Promise<MemoryDefinition> {
    const columns = checkCreateInput(input);
    const now = this.#now();
    const [row] = await this.#db(TABLE)
      .insert({ ...columns, schema: JSON.stringify(columns.schema), created_at: now, updated_at: now })
      .returning<MemoryDefinitionRow[]>('*')
      .catch((error: unknown) => rethrowConflict(error, columns));
    return toMemoryDefinition(row!);
  }

  /**
   * Changes the given fields. The row is locked first, so no record can be written for it
   * between the lock checks and the update (a record insert needs a key-share lock on it).
   */
  async update(id: string, patch: MemoryDefinitionPatch): Promise<MemoryDefinition> {
    const columns = checkPatch(patch);
    if (Object.keys(columns).length === 0) return this.get(id);
    if (!isUuid(id)) throw notFound(id);
    const row = await this.#db.transaction(async (trx) => {
      const locked = await trx<MemoryDefinitionRow>(TABLE).where({ id }).forUpdate().first();
      if (!locked) throw notFound(id);
      await checkLocks(trx, locked, columns);
      const [updated] = await trx(TABLE)
        .update({ ...columns, ...(columns.schema && { schema: JSON.stringify(columns.schema) }), updated_at: this.#nextVersion(trx, columns.schema !== undefined) })
        .where({ id })
        .returning<MemoryDefinitionRow[]>('*');
      return updated!;
    }).catch((error: unknown) => rethrowConflict(error, columns));
    return toMemoryDefinition(row);
  }

  /**
   * Deletes the definition; its records go with it (foreign key cascade). A definition that the
   * current version of a workflow binds is refused (409 naming the workflows): deleting it would
   * leave that workflow unable to run. The row is locked first, so no save can bind it between
   * the check and the delete.
   */
  async delete(id: string): Promise<void> {
    if (!isUuid(id)) throw notFound(id);
    await this.#db.transaction(async (trx) => {
      const locked = await trx(TABLE).where({ id }).forUpdate().first('id');
      if (!locked) throw notFound(id);
      const workflows = await workflowsBindingDefinition(trx, id);
      if (workflows.length > 0) {
        throw new AppError('BOT_ERR_MEMORY_DEFINITION_IN_USE', `The definition is bound by ${quotedList(workflows)}: change those workflows first`, {
          workflows,
        });
      }
      await trx(TABLE).where({ id }).delete();
    });
  }

  /**
   * Whether a slug (given, or derived from a name) is valid and free. `excludeId` lets an edit
   * form check its own definition's slug without seeing it as taken.
   */
  async checkSlug(input: { name: string } | { slug: string }, excludeId?: string): Promise<SlugCheck> {
    const slug = 'slug' in input ? input.slug : slugify(input.name);
    if (!isValidSlug(slug)) return { slug, valid: false, available: false };
    const taken = await this.#db(TABLE)
      .where({ slug })
      .modify((query) => {
        if (excludeId && isUuid(excludeId)) query.whereNot({ id: excludeId });
      })
      .first('id');
    return { slug, valid: true, available: !taken };
  }

  /**
   * `updated_at` doubles as the definition's version (the record side re-compiles its validator
   * when it changes), so it must move on every update even when the clock has not.
   */
  /**
   * The definition's next version (its `updated_at`): later than the last, and, when the schema
   * changes, later than every record written so far. A load trusts a record written after its
   * definition's last change without checking it again, and a record's time comes from the clock
   * of the instance that wrote it, which may run ahead of this one's: without this, a record
   * checked against the old schema could look newer than the change. The row lock held here
   * keeps records from being written meanwhile.
   */
  #nextVersion(trx: Knex.Transaction, schemaChanges: boolean): Knex.Raw {
    if (!schemaChanges) return trx.raw(`greatest(?::timestamptz, updated_at + interval '1 millisecond')`, [this.#now()]);
    return trx.raw(
      `greatest(?::timestamptz, updated_at + interval '1 millisecond',
                (SELECT max(r.updated_at) + interval '1 millisecond' FROM memory_records AS r WHERE r.definition_id = ${TABLE}.id))`,
      [this.#now()],
    );
  }
}

/** Slug and scope are fixed once something depends on them; see {@link slugLockReason}. */
async function checkLocks(trx: Knex.Transaction, current: MemoryDefinitionRow, columns: Partial<DefinitionColumns>): Promise<void> {
  if (columns.slug !== undefined && columns.slug !== current.slug) {
    const reason = await slugLockReason(trx, current.id);
    if (reason) throw new AppError('BOT_ERR_MEMORY_DEFINITION_SLUG_LOCKED', reason, { field: 'slug', slug: current.slug });
  }
  // Each record's identity (its scope key) was built for the old scope; a new scope would make
  // stored records unreachable or collide. Change it only on a definition without records.
  if (columns.scope !== undefined && columns.scope !== current.scope && (await hasRecords(trx, current.id))) {
    throw new AppError('BOT_ERR_MEMORY_DEFINITION_SCOPE_LOCKED', `The scope of "${current.slug}" cannot change: records exist`, {
      field: 'scope',
      scope: current.scope,
    });
  }
}

/**
 * The one place that decides whether a definition's slug is frozen, and why. Expired records
 * not yet swept count too: they still belong to the slug. So does a workflow whose current
 * version binds the definition: its expressions read `$context.memory.<slug>`.
 */
export async function slugLockReason(db: Knex, definitionId: string): Promise<string | undefined> {
  if (await hasRecords(db, definitionId)) return 'The slug cannot change: memory records exist for this definition';
  const workflows = await workflowsBindingDefinition(db, definitionId);
  if (workflows.length > 0) return `The slug cannot change: ${quotedList(workflows)} ${workflows.length === 1 ? 'binds' : 'bind'} this definition`;
  return undefined;
}

function quotedList(names: string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  return quoted.length === 1 ? `the workflow ${quoted[0]}` : `the workflows ${quoted.join(', ')}`;
}

async function hasRecords(db: Knex, definitionId: string): Promise<boolean> {
  const row = await db('memory_records').where({ definition_id: definitionId }).first(db.raw('1 as found'));
  return row !== undefined;
}

/** Unique indexes catch what a pre-check would miss: two requests saving the same name at once. */
function rethrowConflict(error: unknown, columns: Partial<DefinitionColumns>): never {
  if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
    const constraint = pgConstraint(error);
    if (constraint === 'memory_definitions_name_unique') {
      throw new AppError('BOT_ERR_MEMORY_DEFINITION_NAME_TAKEN', `A memory definition is already named "${columns.name}"`, {
        field: 'name',
      }, { cause: error });
    }
    if (constraint === 'memory_definitions_slug_unique') {
      throw new AppError('BOT_ERR_MEMORY_DEFINITION_SLUG_TAKEN', `A memory definition already has the slug "${columns.slug}"`, {
        field: 'slug',
      }, { cause: error });
    }
  }
  throw error;
}

function notFound(id: string): AppError {
  return new AppError('BOT_ERR_MEMORY_DEFINITION_NOT_FOUND', `No memory definition has the id "${id}"`, { id });
}
