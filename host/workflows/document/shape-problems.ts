import type { z } from 'zod';
import type { FoundProblem } from './workflow-problem.ts';

/**
 * The structural check's findings (zod issues of `workflowDocumentSchema`) as problems. An
 * issue about unknown keys becomes one problem per key, at the key, so each is located on its
 * own line; the rest keep zod's path with a message a workflow author can act on.
 */
export function shapeProblems(issues: readonly z.core.$ZodIssue[]): FoundProblem[] {
  return issues.flatMap((issue): FoundProblem[] => {
    const path = issue.path.filter((segment) => typeof segment !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID', message: `Unknown key "${key}"` }));
    }
    return [{ path, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID', message: messageOf(issue) }];
  });
}

function messageOf(issue: z.core.$ZodIssue): string {
  const last = issue.path.at(-1);
  if (issue.code === 'invalid_type' && issue.input === undefined && last !== undefined) {
    return `"${String(last)}" is required (${issue.expected})`;
  }
  if (issue.code === 'invalid_key') {
    return `Invalid name "${String(last)}": ${issue.issues[0]?.message ?? issue.message}`;
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue) {
    return `"kind" must be memory, model or task`;
  }
  return issue.message;
}
