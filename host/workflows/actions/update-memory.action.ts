import { readMemoryValues } from '../memory/read-memory-values.ts';
import type { WorkflowAction } from '../runtime/action.ts';

/**
 * `update_memory` as a task: `inputs.memory` (already evaluated) holds complete new values by
 * slug; they are written all or none through the run's memory (slug names, then bound, then the
 * store's checks), which then refreshes `$context.memory`. It needs no `bindings`: global
 * memory and the memory the workflow's `kind: memory` defs declare can be written.
 * Output: `{ slugs }`, the slugs written.
 */
export const updateMemoryAction: WorkflowAction = {
  name: 'update_memory',
  commitsMemoryWithStep: true,
  async run({ inputs }, { memory }) {
    const values = readMemoryValues(inputs.memory);
    // Committed with this step's record, in one statement: a retry finds the step done exactly
    // when its write is, so a value computed from the one before is never applied twice.
    await memory.update(values, { withStepRecord: true });
    return { slugs: Object.keys(values) };
  },
};
