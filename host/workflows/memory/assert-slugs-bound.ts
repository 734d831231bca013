import type { Knex } from 'knex';
import { AppError } from '../../errors/app-error.ts';

/**
 * A run loads global memory and the memory its `kind: memory` defs declare, so it may write only
 * those: a workflow, thread or run memory it does not declare would be written where this
 * workflow never reads it. Slugs neither declared nor global are looked up (one query, only then);
 * an unknown slug is left for the record store, which rejects it with its own code.
 * Throws BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND.
 */
export async function assertSlugsBound(db: Knex, slugs: string[], declaredSlugs: ReadonlySet<string>): Promise<void> {
  const undeclared = slugs.filter((slug) => !declaredSlugs.has(slug));
  if (undeclared.length === 0) return;
  const scoped: { slug: string; scope: string }[] = await db('memory_definitions')
    .select('slug', 'scope')
    .whereIn('slug', undeclared)
    .whereNot('scope', 'global');
  if (scoped.length === 0) return;
  const list = scoped.map(({ slug, scope }) => `"${slug}" (${scope})`).join(', ');
  throw new AppError('BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND', `The workflow declares no \`kind: memory\` def for ${list}: nothing was written`, {
    slugs: scoped.map(({ slug }) => slug),
  });
}
