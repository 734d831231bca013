import { checkAgentTools } from './check-agent-tools.ts';
import { checkExpressions } from './check-expressions.ts';
import { checkFlow } from './check-flow.ts';
import { checkMemoryBindings } from './check-memory-bindings.ts';
import { checkExpressionReferences, memorySlugsRead, readExpressions } from './check-expression-references.ts';
import { checkMemoryReferences, writtenSlugs } from './check-memory-references.ts';
import { checkModels } from './check-models.ts';
import { checkTaskActions } from './check-task-actions.ts';
import { loadKnownDefinitions, type MemoryDefinitionLookup } from './known-memory-definitions.ts';
import { parseWorkflowYaml } from './parse-workflow-yaml.ts';
import type { WorkflowDocument } from './workflow-document.ts';
import type { FoundProblem, WorkflowProblem } from './workflow-problem.ts';
import { readWorkflowParts, type WorkflowParts } from './workflow-parts.ts';

/** The checks that need nothing but the document. */
const DOCUMENT_CHECKS: ((parts: WorkflowParts) => FoundProblem[])[] = [
  checkFlow,
  checkTaskActions,
  checkModels,
  checkMemoryBindings,
  checkAgentTools,
  checkExpressions,
];

export interface WorkflowValidation {
  valid: boolean;
  /** Every problem found, in the order of the text. */
  problems: WorkflowProblem[];
  /** The document, when it is valid. */
  document: WorkflowDocument | undefined;
}

/**
 * Validates workflow YAML fully: syntax, shape, then every semantic check at once
 * on the parts that have their shape: task references, actions and their inputs, models and
 * providers, memory bindings, memory definition ids and slugs, expressions and the names they
 * read, agent tools.
 *
 * @example
 * const { valid, problems } = await validateWorkflowYaml(text, memoryDefinitionStore);
 * if (!valid) console.log(problems.map((p) => `${p.line}: ${p.path}: ${p.message}`));
 */
export async function validateWorkflowYaml(text: string, memoryDefinitions: MemoryDefinitionLookup): Promise<WorkflowValidation> {
  const parsed = parseWorkflowYaml(text);
  if (!parsed.wellFormed) return { valid: false, problems: parsed.problems, document: undefined };
  const parts = readWorkflowParts(parsed.value);
  const expressions = readExpressions(parts);
  const known = await loadKnownDefinitions(parts, memoryDefinitions, [...writtenSlugs(parts), ...memorySlugsRead(expressions)]);
  const found = [
    ...DOCUMENT_CHECKS.flatMap((check) => check(parts)),
    ...checkMemoryReferences(parts, known),
    ...(await checkExpressionReferences(parts, expressions, known)),
  ];
  const problems = inTextOrder([...parsed.problems, ...found.map(parsed.place)]);
  const valid = problems.length === 0;
  return { valid, problems, document: valid ? parsed.document : undefined };
}

function inTextOrder(problems: WorkflowProblem[]): WorkflowProblem[] {
  const unplaced = Number.MAX_SAFE_INTEGER;
  return problems.toSorted((a, b) => (a.line ?? unplaced) - (b.line ?? unplaced) || (a.column ?? 0) - (b.column ?? 0));
}
