export interface GroupCommitOptions<T, R> {
  /** Writes the items in one statement; resolves with one result per item, in order. */
  writeBatch(items: T[]): Promise<R[]>;
  /** Rows an item adds to a statement. An item is never split across two statements. */
  rowsOf(item: T): number;
  /** Most rows in one statement; an item larger than this is written alone. */
  maxRows: number;
  /**
   * Whether a failed statement is worth retrying item by item: true when one item's data may be
   * what the database refused, false when the failure would hit every item alike (server gone).
   */
  retryAlone(error: unknown): boolean;
  /**
   * Items with the same key never share a statement: the later one waits for the next. For a
   * statement that may not touch one row twice (an upsert's ON CONFLICT DO UPDATE), or whose rows
   * build on each other (a conversation's thread, created by the first).
   */
  keyOf?(item: T): string;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: concurrent writers share one statement. When nothing is being written, the
 * items submitted during this turn of the event loop are written at once; while a statement
 * runs, new items wait and go together in the next one. Each `submit` still resolves only when
 * its own item is written, and rejects only for its own failure.
 * @example
 * const commits = new GroupCommit({ writeBatch: insertRows, rowsOf: (item) => item.rows.length, maxRows: 500, retryAlone: () => true });
 * const [a, b] = await Promise.all([commits.submit(first), commits.submit(second)]); // one statement
 */
export class GroupCommit<T, R> {
  readonly #options: GroupCommitOptions<T, R>;
  #waiting: Waiting<T, R>[] = [];
  #writing = false;

  constructor(options: GroupCommitOptions<T, R>) {
    if (!Number.isInteger(options.maxRows) || options.maxRows < 1) throw new RangeError(`maxRows must be a positive integer, got ${options.maxRows}`);
    this.#options = options;
  }

  /** Resolves with the item's result once the statement that carried it has completed. */
  submit(item: T): Promise<R> {
    const { promise, resolve, reject } = Promise.withResolvers<R>();
    this.#waiting.push({ item, resolve, reject });
    if (!this.#writing) void this.#writeAll();
    return promise;
  }

  async #writeAll(): Promise<void> {
    this.#writing = true;
    // setImmediate, not a timer: it runs right after the I/O callbacks already due, so requests
    // that completed together share the first statement and a lone request waits for nothing.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#waiting.length > 0) await this.#write(this.#takeBatch());
    this.#writing = false;
  }

  /**
   * The oldest waiting items that fit in one statement (at least one, however large); an item
   * whose key is taken already stays for the next, and so does any later item of that key.
   */
  #takeBatch(): Waiting<T, R>[] {
    const { keyOf, rowsOf, maxRows } = this.#options;
    if (!keyOf) {
      let rows = rowsOf(this.#waiting[0]!.item);
      let count = 1;
      for (; count < this.#waiting.length; count += 1) {
        rows += rowsOf(this.#waiting[count]!.item);
        if (rows > maxRows) break;
      }
      return this.#waiting.splice(0, count);
    }
    const batch: Waiting<T, R>[] = [];
    const left: Waiting<T, R>[] = [];
    const keys = new Set<string>();
    let rows = 0;
    for (const waiting of this.#waiting) {
      const key = keyOf(waiting.item);
      const itemRows = rowsOf(waiting.item);
      const fits = batch.length === 0 || rows + itemRows <= maxRows;
      // `keys` holds the keys of the items left behind too: a key's items keep their order.
      if (fits && !keys.has(key)) {
        batch.push(waiting);
        rows += itemRows;
      } else {
        left.push(waiting);
      }
      keys.add(key);
    }
    this.#waiting = left;
    return batch;
  }

  async #write(batch: Waiting<T, R>[]): Promise<void> {
    let results: R[];
    try {
      results = await this.#options.writeBatch(batch.map((waiting) => waiting.item));
    } catch (error) {
      if (batch.length === 1 || !this.#options.retryAlone(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      // One item's data may have failed the whole statement: alone, only that one fails.
      await Promise.all(batch.map((waiting) => this.#write([waiting])));
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(results[index]!));
  }
}
