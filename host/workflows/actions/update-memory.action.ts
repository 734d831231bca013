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
  async run({ inputs }, { memory }) {
    const values = readMemoryValues(inputs.memory);
    await memory.update(values);
    return { slugs: Object.keys(values) };
  },
};
