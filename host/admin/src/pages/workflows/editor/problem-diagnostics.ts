import type { Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { WorkflowProblem } from '../../../api/api-types.ts';

/**
 * The server's problems as diagnostics at their line and column (1-based), each spanning the
 * word there (in an expression, the name there); a problem without a line marks the document's
 * first character.
 */
export function problemDiagnostics(doc: Text, problems: readonly WorkflowProblem[]): Diagnostic[] {
  return problems.map((problem) => {
    const { from, to } = problemRange(doc, problem);
    return { from, to, severity: 'error', message: problem.message, source: `${problem.code}${problem.path ? ` at ${problem.path}` : ''}` };
  });
}

/** Where a problem is in the document. */
export function problemRange(doc: Text, problem: WorkflowProblem): { from: number; to: number } {
  if (!problem.line || problem.line > doc.lines) return { from: 0, to: Math.min(1, doc.length) };
  const line = doc.line(problem.line);
  const from = Math.min(line.from + Math.max((problem.column ?? 1) - 1, 0), line.to);
  // In an expression the place is a name (`visitr` in `$context.memory.visitr.name`): mark that name alone.
  const word = (problem.position === undefined ? /^[^\s,\]}]+/ : /^\w+/).exec(line.text.slice(from - line.from));
  return { from, to: word ? from + word[0].length : Math.min(line.to, from + 1) };
}
