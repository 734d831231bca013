import type { WriteDefinition } from './memory-write-rows.ts';

/** Enough for every definition a deployment plausibly has, while bounding a process's memory. */
const DEFAULT_MAX_ENTRIES = 2_000;

/**
 * Definitions by slug, as last read from the database, so a write can skip reading them. Only a
 * hint: every write that uses an entry re-checks its version in the database, and an entry found
 * stale is forgotten. The least recently used entry goes first when the cache is full.
 */
export class WriteDefinitionCache {
  readonly #entries = new Map<string, WriteDefinition>();
  readonly #maxEntries: number;

  constructor({ maxEntries = DEFAULT_MAX_ENTRIES }: { maxEntries?: number } = {}) {
    if (!Number.isInteger(maxEntries) || maxEntries <= 0) throw new TypeError('WriteDefinitionCache: maxEntries must be a positive integer');
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached definitions of every slug, or undefined when any of them is not cached. */
  getAll(slugs: Iterable<string>): Map<string, WriteDefinition> | undefined {
    const found = new Map<string, WriteDefinition>();
    for (const slug of slugs) {
      const definition = this.#entries.get(slug);
      if (!definition) return undefined;
      // Re-inserting moves the entry to the end, which is what makes eviction least-recently-used.
      this.#entries.delete(slug);
      this.#entries.set(slug, definition);
      found.set(slug, definition);
    }
    return found;
  }

  /** Remembers definitions just read; the slugs asked for but not found are forgotten. */
  remember(slugs: Iterable<string>, definitions: Map<string, WriteDefinition>): void {
    for (const slug of slugs) {
      this.#entries.delete(slug);
      const definition = definitions.get(slug);
      if (definition) this.#entries.set(slug, definition);
    }
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }

  forget(slugs: Iterable<string>): void {
    for (const slug of slugs) this.#entries.delete(slug);
  }
}
