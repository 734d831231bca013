import type { SourceRow } from './source.ts';

export interface SourceCacheOptions {
  /** Reads a source from the database: the cache's only way to fill an entry. */
  load(ref: string): Promise<SourceRow | undefined>;
  /** Reads a source by its id (for `getById`); without it, `getById` always reads through `load`'s entries only. */
  loadById?(id: string): Promise<SourceRow | undefined>;
  /** Milliseconds since the epoch; injected so tests can move time. */
  now(): number;
  /** How long a found source is served from memory at most; default 60 s. */
  ttlMs?: number;
  /** How long an unknown ref is answered from memory; default 2 s. */
  missTtlMs?: number;
  /** Most refs held; past it the oldest entry goes first. Default 10,000. */
  maxEntries?: number;
}

interface Entry {
  source: SourceRow | undefined;
  expiresAt: number;
}

const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MISS_TTL_MS = 2_000;
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * The sources webhooks name, by ref, held in memory so a webhook costs no source query. Writes
 * through the admin API `forget` their ref on this instance once committed, and other instances
 * hear of them by NOTIFY (SourceCacheSync); the TTL only bounds what neither reaches (a change
 * made in SQL by hand, notices lost while the listener reconnects). Unknown refs are remembered
 * briefly, so a platform posting to a deleted source cannot make every retry a query, nor can a
 * source created meanwhile stay unknown for long.
 * @example
 * const cache = new SourceCache({ load: (ref) => sources.findByRef(ref), now: Date.now });
 * const source = await cache.get(ref); // one query, then memory
 * cache.forget(ref); // after a committed update or delete of that source
 */
export class SourceCache {
  readonly #options: Required<Omit<SourceCacheOptions, 'loadById'>> & Pick<SourceCacheOptions, 'loadById'>;
  readonly #entries = new Map<string, Entry>();
  /** The ref of each source id seen, so a lookup by id finds the entry its ref's changes forget. */
  readonly #refById = new Map<string, string>();
  readonly #loading = new Map<string, Promise<SourceRow | undefined>>();
  // Bumped by every forget and clear: a load that began before one may have read the old row,
  // so its result is returned to its caller but not kept.
  #generation = 0;

  constructor(options: SourceCacheOptions) {
    this.#options = { ttlMs: DEFAULT_TTL_MS, missTtlMs: DEFAULT_MISS_TTL_MS, maxEntries: DEFAULT_MAX_ENTRIES, ...options };
    for (const key of ['ttlMs', 'missTtlMs'] as const) {
      const value = this.#options[key];
      if (!Number.isInteger(value) || value < 0) throw new RangeError(`options.${key} must be a non-negative integer, got ${value}`);
    }
    const { maxEntries } = this.#options;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`options.maxEntries must be a positive integer, got ${maxEntries}`);
  }

  /** The source with this ref, or undefined when none has it; from memory when fresh. */
  get(ref: string): Promise<SourceRow | undefined> {
    const entry = this.#entries.get(ref);
    if (entry && entry.expiresAt > this.#options.now()) return Promise.resolve(entry.source);
    // Concurrent misses of one ref share its query.
    return this.#loading.get(ref) ?? this.#load(ref);
  }

  /**
   * The source with this id, or undefined when none has it: from memory when its ref's entry is
   * fresh (what the source's changes forget), else one query by id, kept under its ref. A send's
   * egress rules read the source's settings this way (one query per send otherwise). Unknown ids
   * are not remembered.
   */
  async getById(id: string): Promise<SourceRow | undefined> {
    const ref = this.#refById.get(id);
    const entry = ref === undefined ? undefined : this.#entries.get(ref);
    if (entry?.source?.id === id && entry.expiresAt > this.#options.now()) return entry.source;
    const { loadById } = this.#options;
    if (!loadById) return undefined;
    const generation = this.#generation;
    const loaded = await loadById(id);
    if (!loaded) return undefined;
    const source = deepFreeze(loaded);
    if (generation === this.#generation) this.#remember(source.ref, source);
    return source;
  }

  /** Drops what is known of `ref`: the next `get` reads the database. */
  forget(ref: string): void {
    this.#generation += 1;
    this.#entries.delete(ref);
    this.#loading.delete(ref);
  }

  /** Drops everything (the change listener lost notices). */
  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#loading.clear();
  }

  async #load(ref: string): Promise<SourceRow | undefined> {
    const generation = this.#generation;
    const loading = this.#options.load(ref).then((source) => (source ? deepFreeze(source) : undefined));
    this.#loading.set(ref, loading);
    try {
      const source = await loading;
      if (generation === this.#generation) this.#remember(ref, source);
      return source;
    } finally {
      if (this.#loading.get(ref) === loading) this.#loading.delete(ref);
    }
  }

  #remember(ref: string, source: SourceRow | undefined): void {
    const { now, ttlMs, missTtlMs, maxEntries } = this.#options;
    this.#entries.delete(ref); // re-inserted last: a Map iterates in insertion order, oldest first
    if (this.#entries.size >= maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(ref, { source, expiresAt: now() + (source ? ttlMs : missTtlMs) });
    if (source) {
      if (this.#refById.size >= maxEntries) this.#refById.clear();
      this.#refById.set(source.id, ref);
    }
  }
}

/** Every request shares the cached row: frozen, none can change what the next one sees. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
