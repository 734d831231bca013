import { AppError } from '../../errors/app-error.ts';
import { findUnstorableText } from '../../json/find-unstorable-text.ts';
import type { MemoryScope, MemorySchema } from '../definitions/memory-definition.ts';
import type { MemoryTarget } from './memory-record.ts';
import type { MemoryValueValidator, ValueError } from './memory-value-validator.ts';

const SLUG_PATTERN = /^[a-z0-9_]+$/;

/** The target id each non-global scope adds to a record's identity. */
const SCOPE_TARGET_KEY = { workflow: 'workflowId', thread: 'threadId', run: 'runId' } as const;

/** One value to write: for `target`, under the definition named `slug`. */
export interface MemoryWriteEntry {
  target: MemoryTarget;
  slug: string;
  value: unknown;
}

/** The columns of a definition a write needs, read under `FOR SHARE` or from the cache. */
export interface WriteDefinition {
  id: string;
  slug: string;
  scope: MemoryScope;
  ttl_seconds: number | null;
  schema: MemorySchema;
  updated_at: Date;
  /**
   * `updated_at` as Postgres prints it. A Date keeps milliseconds but Postgres microseconds, so
   * only the text compares equal to the stored value when a write re-checks the version.
   */
  version: string;
}

/** One row of the upsert, in the shape `jsonb_to_recordset` reads. */
export interface WriteRow {
  definition_id: string;
  owner_id: string;
  workflow_id: string | null;
  thread_id: string | null;
  run_id: string | null;
  scope_key: string;
  value: unknown;
  expires_at: string | null;
}

/** Rejects the whole write before any database work when a slug has characters outside a-z0-9_. */
export function assertSlugNames(slugs: Iterable<string>): void {
  const invalid = [...new Set(slugs)].filter((slug) => !SLUG_PATTERN.test(slug));
  if (invalid.length === 0) return;
  throw new AppError('BOT_ERR_MEMORY_SLUG_INVALID', `Invalid memory slug ${quoteList(invalid)}: use a-z, 0-9 and _ only`, {
    slugs: invalid,
  });
}

export function assertSlugsKnown(slugs: Iterable<string>, definitions: Map<string, WriteDefinition>): void {
  const unknown = [...new Set(slugs)].filter((slug) => !definitions.has(slug));
  if (unknown.length === 0) return;
  throw new AppError('BOT_ERR_MEMORY_SLUG_UNKNOWN', `Unknown memory slug ${quoteList(unknown)}`, { slugs: unknown });
}

/**
 * Turns checked entries into upsert rows: each scope id present, each value valid (all problems
 * reported together), one row per identity with the last entry winning, because one
 * `INSERT … ON CONFLICT DO UPDATE` may not touch the same row twice, sorted by identity.
 */
export function buildWriteRows(
  entries: MemoryWriteEntry[],
  definitions: Map<string, WriteDefinition>,
  validator: MemoryValueValidator,
  now: Date,
): WriteRow[] {
  const rows = entries.map((entry) => toWriteRow(entry, definitions.get(entry.slug)!, now));
  assertValuesValid(entries, definitions, validator);
  const byIdentity = new Map(rows.map((row) => [`${row.owner_id}\u0000${row.definition_id}\u0000${row.scope_key}`, row]));
  // Every upsert locks its rows in identity order, so concurrent batches that touch the same
  // identities in different orders wait for each other instead of deadlocking.
  return [...byIdentity.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

function toWriteRow({ target, slug, value }: MemoryWriteEntry, definition: WriteDefinition, now: Date): WriteRow {
  const scopeId = scopeKeyOf(target, definition.scope);
  if (scopeId === undefined) {
    const needs = SCOPE_TARGET_KEY[definition.scope as Exclude<MemoryScope, 'global'>];
    throw new AppError('BOT_ERR_MEMORY_SCOPE_MISSING', `Memory "${slug}" has ${definition.scope} scope: the write needs a ${needs}`, {
      slug,
      scope: definition.scope,
      needs,
    });
  }
  const ttl = definition.ttl_seconds;
  return {
    definition_id: definition.id,
    owner_id: target.ownerId,
    // Only the id that is part of the identity is stored: a global record is shared by every
    // workflow, so recording the last writer's workflow would mislead.
    workflow_id: definition.scope === 'workflow' ? scopeId : null,
    thread_id: definition.scope === 'thread' ? scopeId : null,
    run_id: definition.scope === 'run' ? scopeId : null,
    scope_key: scopeId,
    value,
    expires_at: ttl === null ? null : new Date(now.getTime() + ttl * 1000).toISOString(),
  };
}

/** The identity part the scope adds: '' for global, else the target's id for it (undefined when absent). */
function scopeKeyOf(target: MemoryTarget, scope: MemoryScope): string | undefined {
  if (scope === 'global') return '';
  const id = target[SCOPE_TARGET_KEY[scope]];
  return id === '' ? undefined : id;
}

function assertValuesValid(entries: MemoryWriteEntry[], definitions: Map<string, WriteDefinition>, validator: MemoryValueValidator) {
  const invalid: { slug: string; errors: ValueError[] }[] = [];
  for (const { slug, value } of entries) {
    const definition = definitions.get(slug)!;
    const errors = validator.check({ id: definition.id, updatedAt: definition.updated_at.toISOString(), schema: definition.schema }, value);
    const unstorable = findUnstorableText(value);
    // jsonb refuses these, so a value that holds one is refused here, not by a failed statement.
    if (unstorable !== undefined) errors.push({ path: `/${unstorable.replaceAll('.', '/')}`, message: UNSTORABLE_MESSAGE });
    if (errors.length > 0) invalid.push({ slug, errors });
  }
  if (invalid.length === 0) return;
  const first = invalid[0]!;
  const reason = first.errors.map((error) => `${error.path} ${error.message}`).join('; ');
  throw new AppError('BOT_ERR_MEMORY_VALUE_INVALID', `Memory value for "${first.slug}" does not match its schema: ${reason}`, {
    invalid,
  });
}

const UNSTORABLE_MESSAGE = 'holds a NUL character or an unpaired surrogate, which cannot be stored';

function quoteList(items: string[]): string {
  return items.map((item) => JSON.stringify(item)).join(', ');
}
