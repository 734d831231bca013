import { AppError } from '../../errors/app-error.ts';

/**
 * The `memory` input of `update_memory` (task or AI tool) as values by slug: it must be an
 * object; each value is the complete new value of its slug. Throws BOT_ERR_WORKFLOW_INPUT_INVALID.
 * @example readMemoryValues({ profile: { name: 'Ada' } }) // { profile: { name: 'Ada' } }
 */
export function readMemoryValues(memory: unknown): Record<string, unknown> {
  if (typeof memory === 'object' && memory !== null && !Array.isArray(memory)) return memory as Record<string, unknown>;
  const got = memory === null ? 'null' : Array.isArray(memory) ? 'an array' : typeof memory;
  throw new AppError('BOT_ERR_WORKFLOW_INPUT_INVALID', `update_memory: memory must be an object of slugs to values, not ${got}`, {
    input: 'memory',
  });
}
