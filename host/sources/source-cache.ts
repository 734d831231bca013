import { DEFAULT_MAX_ENTRIES, ReadThroughCache, type ReadThroughCacheOptions } from '../cache/read-through-cache.ts';
import type { SourceRow } from './source.ts';

export interface SourceCacheOptions extends ReadThroughCacheOptions<SourceRow> {
  /** Reads a source by its id (for `getById`); without it, `getById` always reads through `load`'s entries only. */
  loadById?(id: string): Promise<SourceRow | undefined>;
}

/**
 * The sources webhooks name, by ref, held in memory so a webhook costs no source query. Writes
 * through the admin API `forget` their ref on this instance once committed, and other instances
 * hear of them by NOTIFY (a ChangeNoticeSync of SOURCE_CHANGES); the TTL only bounds what neither reaches (a change
 * made in SQL by hand, notices lost while the listener reconnects). Unknown refs are remembered
 * briefly, so a platform posting to a deleted source cannot make every retry a query, nor can a
 * source created meanwhile stay unknown for long.
 * @example
 * const cache = new SourceCache({ load: (ref) => sources.findByRef(ref), now: Date.now });
 * const source = await cache.get(ref); // one query, then memory
 * cache.forget(ref); // after a committed update or delete of that source
 */
export class SourceCache {
  readonly #byRef: ReadThroughCache<SourceRow>;
  readonly #loadById: SourceCacheOptions['loadById'];
  readonly #maxEntries: number;
  /** The ref of each source id seen, so a lookup by id finds the entry its ref's changes forget. */
  readonly #refById = new Map<string, string>();

  constructor({ load, loadById, ...options }: SourceCacheOptions) {
    this.#byRef = new ReadThroughCache({ ...options, load: async (ref) => this.#seen(await load(ref)) });
    this.#loadById = loadById;
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  /** The source with this ref, or undefined when none has it; from memory when fresh. */
  get(ref: string): Promise<SourceRow | undefined> {
    return this.#byRef.get(ref);
  }

  /**
   * The source with this id, or undefined when none has it: from memory when its ref's entry is
   * fresh (what the source's changes forget), else one query by id, kept under its ref. A send's
   * egress rules and each claimed inbound event read the source this way (one query each
   * otherwise). Unknown ids are not remembered.
   */
  async getById(id: string): Promise<SourceRow | undefined> {
    const ref = this.#refById.get(id);
    const fresh = ref === undefined ? undefined : this.#byRef.peek(ref);
    if (fresh?.value?.id === id) return fresh.value;
    const loadById = this.#loadById;
    if (!loadById) return undefined;
    return this.#byRef.fill(async () => this.#seen(await loadById(id)), (source) => source.ref);
  }

  /** Drops what is known of `ref`: the next `get` reads the database. */
  forget(ref: string): void {
    this.#byRef.forget(ref);
  }

  /** Drops everything (the change listener lost notices). */
  clear(): void {
    this.#byRef.clear();
  }

  /** A source just read, frozen, its ref noted under its id. */
  #seen(loaded: SourceRow | undefined): SourceRow | undefined {
    if (!loaded) return undefined;
    const source = deepFreeze(loaded);
    if (this.#refById.size >= this.#maxEntries) this.#refById.clear();
    this.#refById.set(source.id, source.ref);
    return source;
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
