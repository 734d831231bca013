/**
 * For tests of caches kept in step by NOTIFY (ChangeNoticeSync) on several host instances sharing
 * one test database: two instances made per test file, what each one's listeners dropped, waited
 * for as it arrives.
 */
import type { Knex } from 'knex';
import type { ForgettingCache } from '../../host/db/change-notice-sync.ts';
import { LISTEN_APPLICATION_NAME } from '../../host/db/listen-connection.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** A test's host instance: its listeners, and the keys they dropped (`*` for each time a cache was emptied). */
export interface ListeningInstance {
  syncs: ReadonlyArray<{ start(): Promise<void>; close(): Promise<void> }>;
  dropped: string[];
}

/** Two host instances on one test database, made by `start` and listening once `open` resolves. */
export class TwoInstances<I extends ListeningInstance> {
  readonly #start: (db: Knex, instanceId: string) => I;
  #database: TestDatabase | undefined;
  #pair: { a: I; b: I } | undefined;

  constructor(start: (db: Knex, instanceId: string) => I) {
    this.#start = start;
  }

  get db(): Knex {
    if (!this.#database) throw new Error('the instances are not open');
    return this.#database.db;
  }

  async open(): Promise<{ a: I; b: I }> {
    this.#database = await createTestDatabase({ poolMax: 8 });
    const pair = { a: this.#start(this.#database.db, 'instance-a'), b: this.#start(this.#database.db, 'instance-b') };
    this.#pair = pair;
    await Promise.all(this.#syncs().map((sync) => sync.start()));
    return pair;
  }

  async close(): Promise<void> {
    await Promise.all(this.#syncs().map((sync) => sync.close()));
    await this.#database?.close();
  }

  /** Waits until the instance that did not write heard of `key`, then forgets both instances' drops so far: later notices stand apart. */
  async heardByTheOther(writer: I, key: string): Promise<void> {
    const { a, b } = this.#pair!;
    const other = writer === a ? b : a;
    await eventually(() => other.dropped.includes(key), `the other instance heard of ${key}`);
    a.dropped.length = 0;
    b.dropped.length = 0;
  }

  #syncs() {
    return this.#pair ? [...this.#pair.a.syncs, ...this.#pair.b.syncs] : [];
  }
}

/** `cache`, with every key it forgets pushed to `dropped`, and `*` for each time it was emptied. */
export function recordingDrops(cache: ForgettingCache, dropped: string[]): ForgettingCache {
  return {
    forget: (key) => void (dropped.push(key), cache.forget(key)),
    clear: () => void (dropped.push('*'), cache.clear()),
  };
}

/** Polls (every 10 ms, for at most 2 s) until `check` holds: notices arrive asynchronously. */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Ends the listening connection of the test database (a lost listener): the one every listener of
 * a database handle shares, so both in-process instances of a test lose it. Returns how many ended.
 */
export async function terminateListeners(db: Knex): Promise<number> {
  const killed = await db.raw(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = ? AND pid <> pg_backend_pid()`,
    [LISTEN_APPLICATION_NAME],
  );
  return killed.rows.length;
}
