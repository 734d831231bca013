import { LineCounter, parseDocument } from 'yaml';
import { shapeProblems } from './shape-problems.ts';
import { workflowDocumentSchema, type WorkflowDocument } from './workflow-document.ts';
import { formatYamlPath, type FoundProblem, type WorkflowProblem } from './workflow-problem.ts';
import { createYamlLocator, type YamlLocator } from './yaml-locator.ts';
import { yamlSyntaxProblem } from './yaml-syntax-problem.ts';

/** The anchors and aliases one document may expand: enough for sharing inputs, too few for a "billion laughs". */
const MAX_ALIAS_COUNT = 100;

export interface ParsedWorkflowYaml {
  /** False when the text is not valid YAML: then `value` is undefined and no other check applies. */
  wellFormed: boolean;
  /** The YAML as plain data. */
  value: unknown;
  /** The document, when the text is valid YAML of the workflow's shape. */
  document: WorkflowDocument | undefined;
  /** Syntax problems, or else shape problems, located in the text. */
  problems: WorkflowProblem[];
  /** Places problems found by later checks in the same text. */
  place(found: FoundProblem): WorkflowProblem;
}

/**
 * Parses workflow YAML and checks its shape against `workflowDocumentSchema`. Every problem
 * carries its path and, when the text has the node, its line and column. Comments (such as a
 * `# yaml-language-server: $schema=…` first line) are ignored, as YAML says.
 *
 * @example
 * const parsed = parseWorkflowYaml('defs: {}\nflow: []\n');
 * parsed.problems[0]; // { path: 'flow', line: 2, column: 1, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID', … }
 */
export function parseWorkflowYaml(text: string): ParsedWorkflowYaml {
  const lineCounter = new LineCounter();
  const yaml = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locate = createYamlLocator(text, yaml, lineCounter);
  const place = (found: FoundProblem) => placeProblem(found, locate);
  const syntax = yamlSyntaxProblem(yaml.errors, text, lineCounter);
  const syntaxProblems = syntax ? [syntax] : [];
  let value: unknown;
  if (syntaxProblems.length === 0) {
    try {
      value = yaml.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      syntaxProblems.push({ path: '', code: 'BOT_ERR_WORKFLOW_YAML_SYNTAX', message: (error as Error).message });
    }
  }
  if (syntaxProblems.length > 0) return { wellFormed: false, value: undefined, document: undefined, problems: syntaxProblems, place };
  const shape = workflowDocumentSchema.safeParse(value, { reportInput: true });
  return {
    wellFormed: true,
    value,
    document: shape.success ? shape.data : undefined,
    problems: shape.success ? [] : shapeProblems(shape.error.issues).map(place),
    place,
  };
}

function placeProblem({ path, code, message, position }: FoundProblem, locate: YamlLocator): WorkflowProblem {
  // Expressions are written after "=", so JSONata's position is also the index in the YAML value.
  const location = locate(path, position);
  return {
    path: formatYamlPath(path),
    ...(location && { line: location.line, column: location.column }),
    code,
    message,
    ...(position !== undefined && { position }),
  };
}
