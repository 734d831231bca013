import { StateEffect, StateField } from '@codemirror/state';
import type { MemoryDefinition } from '../../../api/api-types.ts';

/** Replaces the memory definitions the editor offers (loaded from the admin API). */
export const setMemoryDefinitions = StateEffect.define<readonly MemoryDefinition[]>();

/** The memory definitions known to the editor, for `definition_id` and `$context.memory.<slug>`. */
export const memoryDefinitionsField = StateField.define<readonly MemoryDefinition[]>({
  create: () => [],
  update: (value, transaction) => transaction.effects.reduce((current, effect) => (effect.is(setMemoryDefinitions) ? effect.value : current), value),
});
