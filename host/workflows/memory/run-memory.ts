import type { Tool } from 'ai';
import type { Knex } from 'knex';
import type { MemoryRecordStore } from '../../memory/records/memory-record-store.ts';
import type { MemoryTarget } from '../../memory/records/memory-record.ts';
import { asJsonbStores } from '../../json/as-jsonb-stores.ts';
import { assertSlugNames } from '../../memory/records/memory-write-rows.ts';
import type { TaskDef } from '../document/workflow-document.ts';
import type { BoundMemoryDefinition, RunMemory, RunState, StagedMemoryWrite } from '../runtime/action.ts';
import { assertSlugsBound } from './assert-slugs-bound.ts';
import { bindMemoryDefs, memoryDefinitionIds, type MemoryDefsByName } from './bind-memory-defs.ts';
import { endRunMemory } from './end-run-memory.ts';
import { createUpdateMemoryTool } from './update-memory-tool.ts';
import { renderWorkingMemory } from './working-memory-block.ts';

export interface RunMemoryDependencies {
  db: Knex;
  records: Pick<MemoryRecordStore, 'load' | 'write' | 'endRun'> & Partial<Pick<MemoryRecordStore, 'prepareWrite' | 'settlePreparedWrite'>>;
}

/** A run's memory, plus `end()` for the runner's `finally`. */
export interface OpenedRunMemory extends RunMemory {
  /** Removes the run-scope records (see {@link endRunMemory}). */
  end(): Promise<void>;
  /** Whether a bound definition is thread-scoped: what the run reads then depends on its thread. */
  readonly readsThread: boolean;
}

/**
 * Opens a run's memory with one statement: the definitions of the document's
 * `kind: memory` defs, bound by name (see {@link bindMemoryDefs}), and `run.context.memory`:
 * global definitions always, workflow, thread and run ones only when a `kind: memory` def
 * declares them, each for the run's owner and its workflow, thread or run.
 * A slug without a live, valid record is a missing key.
 * @example const memory = await openRunMemory(run, { db, records }); try { … } finally { await memory.end() }
 */
export async function openRunMemory(run: RunState, dependencies: RunMemoryDependencies): Promise<OpenedRunMemory> {
  const definitionIds = memoryDefinitionIds(run.document);
  const { values, definitions } = await dependencies.records.load(runTarget(run), { definitionIds, withDefinitions: true });
  // Bound before the values are set: a run whose def lost its definition gets no memory at all.
  const memory = new StoredRunMemory(run, bindMemoryDefs(run.document, definitions), dependencies);
  run.context.memory = values;
  return memory;
}

function runTarget({ ownerId, workflowId, threadId, runId }: RunState): MemoryTarget {
  return { ownerId, workflowId, threadId, runId };
}

class StoredRunMemory implements OpenedRunMemory {
  readonly #run: RunState;
  readonly #defs: MemoryDefsByName;
  readonly #declaredSlugs: ReadonlySet<string>;
  readonly #db: Knex;
  readonly #records: RunMemoryDependencies['records'];
  #staged: StagedMemoryWrite | undefined;
  /** Within collectStagedWrite: the runner commits a staged write with the step's record. */
  #collecting = false;

  constructor(run: RunState, defs: MemoryDefsByName, { db, records }: RunMemoryDependencies) {
    this.#run = run;
    this.#defs = defs;
    this.#declaredSlugs = new Set([...defs.values()].map(({ slug }) => slug));
    this.#db = db;
    this.#records = records;
  }

  /**
   * Slug names first, then whether the run may write each slug, then the store's checks (known
   * slug, valid value) and its one all-or-none write; nothing is written unless all pass.
   */
  async update(values: Record<string, unknown>, { withStepRecord = false }: { withStepRecord?: boolean } = {}): Promise<void> {
    const slugs = Object.keys(values);
    assertSlugNames(slugs);
    await assertSlugsBound(this.#db, slugs, this.#declaredSlugs);
    const stages = withStepRecord && this.#collecting && !this.#staged;
    const prepared = stages ? this.#records.prepareWrite?.(runTarget(this.#run), values) : undefined;
    if (!prepared) return this.#refresh(await this.#records.write(runTarget(this.#run), values));
    this.#staged = {
      call: prepared.call,
      preview: () => this.#refresh(Object.entries(values).map(([slug, value]) => ({ slug, value: asJsonbStores(value) }))),
      settle: async (written, current) => {
        const stored = this.#records.settlePreparedWrite?.(prepared, written, current);
        // A definition changed since it was cached: written the checked way, against the current one.
        this.#refresh(stored ?? (await this.#records.write(runTarget(this.#run), values)));
      },
    };
  }

  async collectStagedWrite<T>(action: () => Promise<T>): Promise<{ result: T; staged: StagedMemoryWrite | undefined }> {
    this.#collecting = true;
    try {
      return { result: await action(), staged: this.#staged };
    } finally {
      this.#collecting = false;
      this.#staged = undefined;
    }
  }

  /** The stored values (as the database returns them) are what a reload would give. */
  #refresh(written: { slug: string; value: unknown }[]): void {
    this.#run.context.memory = { ...this.#run.context.memory, ...Object.fromEntries(written.map(({ slug, value }) => [slug, value])) };
  }

  /** An explicit `bindings.memory: []` on a task means no memory for it. */
  boundDefinitions(task: TaskDef): BoundMemoryDefinition[] {
    const names = task.bindings?.memory ?? this.#run.document.bindings?.memory ?? [];
    const byId = new Map<string, BoundMemoryDefinition>();
    for (const name of names) {
      const definition = this.#defs.get(name);
      if (definition && !byId.has(definition.id)) byId.set(definition.id, definition);
    }
    return [...byId.values()];
  }

  workingMemoryBlock(task: TaskDef): string {
    return renderWorkingMemory(this.boundDefinitions(task), this.#run.context.memory);
  }

  updateTool(task: TaskDef): Tool | undefined {
    const bound = this.boundDefinitions(task);
    return bound.length === 0 ? undefined : createUpdateMemoryTool(bound, (values) => this.update(values));
  }

  get readsThread(): boolean {
    return [...this.#defs.values()].some(({ scope }) => scope === 'thread');
  }

  /** A run can write only the slugs its document declares: without a run-scope one there is nothing to remove. */
  async end(): Promise<void> {
    if (![...this.#defs.values()].some(({ scope }) => scope === 'run')) return;
    await endRunMemory(this.#records, this.#run.runId);
  }
}
