import { AppError } from '../../errors/app-error.ts';
import { parseWorkflowYaml } from '../document/parse-workflow-yaml.ts';
import type { WorkflowDocument } from '../document/workflow-document.ts';

const MAX_CACHED = 500;
const cache = new Map<string, WorkflowDocument>();

/**
 * The document of one workflow version, parsed from its YAML rather than read from the jsonb
 * copy: jsonb reorders object keys, and key order is meaning for a model (the properties of an
 * `ai_generate_object` schema are generated in the order written). Versions never change, so
 * each is parsed once; the cache is bounded, oldest first out. Each caller gets its own copy, so
 * no run can change the document another run sees.
 */
export async function loadVersionDocument(workflowId: string, version: number, readYaml: () => Promise<string>): Promise<WorkflowDocument> {
  const key = `${workflowId}@${version}`;
  const cached = cache.get(key);
  if (cached) return structuredClone(cached);
  const parsed = parseWorkflowYaml(await readYaml());
  // Valid when saved; only a later, stricter schema can make it fail, and then it must not run.
  if (!parsed.document) {
    throw new AppError('BOT_ERR_WORKFLOW_INVALID', `Version ${version} of the workflow no longer matches the workflow schema`, {
      problems: parsed.problems,
    });
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, parsed.document);
  return structuredClone(parsed.document);
}
