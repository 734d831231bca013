export interface ReadThroughCacheOptions<V> {
  /** Reads a value from the database, undefined when there is none: the cache's only way to fill an entry. */
  load(key: string): Promise<V | undefined>;
  /** Milliseconds since the epoch; injected so tests can move time. */
  now(): number;
  /** How long a found value is served from memory at most; default 60 s. */
  ttlMs?: number;
  /** How long a key with no value is answered from memory; default 2 s. */
  missTtlMs?: number;
  /** Most keys held; past it the oldest entry goes first. Default 10,000. */
  maxEntries?: number;
}

interface Entry<V> {
  value: V | undefined;
  expiresAt: number;
}

const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MISS_TTL_MS = 2_000;
export const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Rows read from the database, held in memory by key for a bounded time, for caches that writes
 * `forget` (ChangeNoticeSync tells every instance); the TTL only bounds what no notice reaches. A
 * key with no row is remembered briefly, so asking again and again for a missing row costs no
 * query each time, nor can a row created meanwhile stay unknown for long.
 * @example
 * const versions = new ReadThroughCache<number>({ load: (id) => readVersion(id), now: Date.now });
 * await versions.get(id); // one query, then memory
 * versions.forget(id); // after a committed write of that row
 */
export class ReadThroughCache<V> {
  readonly #options: Required<ReadThroughCacheOptions<V>>;
  readonly #entries = new Map<string, Entry<V>>();
  readonly #loading = new Map<string, Promise<V | undefined>>();
  // Bumped by every forget and clear: a load that began before one may have read the old row,
  // so its result is returned to its caller but not kept.
  #generation = 0;

  constructor(options: ReadThroughCacheOptions<V>) {
    this.#options = { ttlMs: DEFAULT_TTL_MS, missTtlMs: DEFAULT_MISS_TTL_MS, maxEntries: DEFAULT_MAX_ENTRIES, ...options };
    for (const key of ['ttlMs', 'missTtlMs'] as const) {
      const value = this.#options[key];
      if (!Number.isInteger(value) || value < 0) throw new RangeError(`options.${key} must be a non-negative integer, got ${value}`);
    }
    const { maxEntries } = this.#options;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`options.maxEntries must be a positive integer, got ${maxEntries}`);
  }

  /** The value of `key`, or undefined when it has none; from memory when fresh. */
  get(key: string): Promise<V | undefined> {
    const entry = this.#fresh(key);
    if (entry) return Promise.resolve(entry.value);
    // Concurrent misses of one key share its query.
    return this.#loading.get(key) ?? this.#load(key);
  }

  /** The fresh entry of `key` without reading anything (its value undefined for a remembered miss); undefined when none is fresh. */
  peek(key: string): { value: V | undefined } | undefined {
    const entry = this.#fresh(key);
    return entry && { value: entry.value };
  }

  /**
   * Reads a value another way than `load` (by another key) and keeps it under `keyOf(value)`,
   * unless something was forgotten meanwhile. Nothing is remembered when `read` finds nothing.
   */
  async fill(read: () => Promise<V | undefined>, keyOf: (value: V) => string): Promise<V | undefined> {
    const generation = this.#generation;
    const value = await read();
    if (value !== undefined && generation === this.#generation) this.#remember(keyOf(value), value);
    return value;
  }

  /** Drops what is known of `key`: the next `get` reads the database. */
  forget(key: string): void {
    this.#generation += 1;
    this.#entries.delete(key);
    this.#loading.delete(key);
  }

  /** Drops everything (the change listener lost notices). */
  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#loading.clear();
  }

  #fresh(key: string): Entry<V> | undefined {
    const entry = this.#entries.get(key);
    return entry && entry.expiresAt > this.#options.now() ? entry : undefined;
  }

  async #load(key: string): Promise<V | undefined> {
    const generation = this.#generation;
    const loading = this.#options.load(key);
    this.#loading.set(key, loading);
    try {
      const value = await loading;
      if (generation === this.#generation) this.#remember(key, value);
      return value;
    } finally {
      if (this.#loading.get(key) === loading) this.#loading.delete(key);
    }
  }

  #remember(key: string, value: V | undefined): void {
    const { now, ttlMs, missTtlMs, maxEntries } = this.#options;
    this.#entries.delete(key); // re-inserted last: a Map iterates in insertion order, oldest first
    if (this.#entries.size >= maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, expiresAt: now() + (value === undefined ? missTtlMs : ttlMs) });
  }
}
