/** Which way one conditional (`test ? then : else`) of a step's input went when the step ran. */
export interface BranchTaken {
  /** The input's path under `inputs` (`text`, `memory.profile`). */
  input: string;
  /** The conditional's rank among the input's conditionals, in the order their `?` appear. */
  index: number;
  /** `both` when the conditional ran more than once (in a loop or a lambda) and went both ways. */
  took: 'then' | 'else' | 'both';
}

/**
 * Collects the branches a step's input expressions took, for the step's record: the drawn run
 * marks them on the flow. A conditional never evaluated (inside a branch not taken) is absent.
 *
 * @example
 * const log = new BranchLog();
 * log.record('text', 0, true);
 * log.taken() // [{ input: 'text', index: 0, took: 'then' }]
 */
export class BranchLog {
  readonly #taken = new Map<string, BranchTaken>();

  record(input: string, index: number, held: boolean): void {
    const key = `${index}:${input}`;
    const took = held ? 'then' : 'else';
    const earlier = this.#taken.get(key);
    this.#taken.set(key, { input, index, took: earlier && earlier.took !== took ? 'both' : took });
  }

  taken(): BranchTaken[] {
    return [...this.#taken.values()];
  }
}
