import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { MemoryDefinitionStore } from '../memory/definitions/memory-definition-store.ts';
import { bindDefinitionPlaceholders } from '../workflows/document/bind-definition-placeholders.ts';
import type { WorkflowStore } from '../workflows/storage/workflow-store.ts';

const SEED = 'examples-v1';
const EXAMPLES_DIR = new URL('../../workflows/examples/', import.meta.url);

/** The examples in workflows/examples/, by the name they are saved under. */
export const EXAMPLE_WORKFLOWS = [
  { name: 'Greeting', file: 'greeting.yaml' },
  { name: 'AI reply', file: 'ai-reply.yaml' },
] as const;

/** The global memory both examples bind (`definition_id: profile`). */
const PROFILE = {
  name: 'Profile',
  slug: 'profile',
  scope: 'global' as const,
  schema: { type: 'object', properties: { name: { type: 'string', title: 'Name', description: "The subscriber's first name" } } },
};

export interface SeedDeps {
  db: Knex;
  memoryDefinitions: MemoryDefinitionStore;
  workflows: WorkflowStore;
}

/**
 * On the first start of the embedded default, creates the `profile` memory definition and the
 * example workflows, so a newcomer has something that runs. Runs once per database (a mark in
 * `seeds`, written last), so an example the operator deletes stays deleted; a start cut short
 * seeds again, keeping what already exists under the same slug or name. Returns the ids of the
 * workflows it created, by name; undefined when the database was seeded before.
 */
export async function seedExamples({ db, memoryDefinitions, workflows }: SeedDeps): Promise<Map<string, string> | undefined> {
  if (await db('seeds').where({ name: SEED }).first()) return undefined;
  const [existing] = await memoryDefinitions.findBySlugs([PROFILE.slug]);
  const profile = existing ?? (await memoryDefinitions.create(PROFILE));
  const ids = new Map<string, string>();
  for (const example of EXAMPLE_WORKFLOWS) {
    const text = await readFile(new URL(example.file, EXAMPLES_DIR), 'utf8');
    const yaml = bindDefinitionPlaceholders(text, new Map([[PROFILE.slug, profile.id]]));
    const saved = await workflows.create({ name: example.name, yaml }, 'seed').catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'BOT_ERR_WORKFLOW_NAME_TAKEN') return undefined;
      throw error;
    });
    if (saved) ids.set(example.name, saved.id);
  }
  await db('seeds').insert({ name: SEED }).onConflict('name').ignore();
  return ids;
}
