import type { z } from 'zod';
import { describeValue, expectedAt, placeName } from './shape-expectations.ts';
import type { FoundProblem, YamlPath } from './workflow-problem.ts';

/**
 * The structural check's findings (zod issues of `workflowDocumentSchema`) as problems. An
 * issue about unknown keys becomes one problem per key, at the key, so each is located on its
 * own line; the rest keep zod's path with a message that names the key and what belongs there.
 */
export function shapeProblems(issues: readonly z.core.$ZodIssue[]): FoundProblem[] {
  return issues.flatMap((issue): FoundProblem[] => {
    const path = issue.path.filter((segment) => typeof segment !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID', message: unknownKeyMessage(path, key) }));
    }
    return [{ path, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID', message: messageOf(issue, path) }];
  });
}

function messageOf(issue: z.core.$ZodIssue, path: YamlPath): string {
  const last = path.at(-1);
  if (issue.code === 'invalid_type') {
    const expected = expectedAt(path, issue.expected);
    if (issue.input === undefined && last !== undefined) return `${placeName(path)} is required: ${expected}`;
    return `${placeName(path)} must be ${expected}, not ${describeValue(issue.input)}`;
  }
  if (issue.code === 'invalid_key') {
    return `Invalid name "${String(last)}": ${issue.issues[0]?.message ?? issue.message}`;
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue) {
    return `"kind" must be memory, model or task`;
  }
  if (issue.code === 'too_small' && issue.origin === 'array') {
    return `${placeName(path)} needs at least ${issue.minimum === 1 ? 'one item' : `${String(issue.minimum)} items`}: ${expectedAt(path) ?? 'a list'}`;
  }
  if (issue.code === 'too_small' && issue.origin === 'string') return `${placeName(path)} must not be empty: ${expectedAt(path) ?? 'text'}`;
  return `${placeName(path)}: ${issue.message}`;
}

function unknownKeyMessage(path: YamlPath, key: string): string {
  const expected = expectedAt(path);
  return `Unknown key "${key}"${path.length > 0 ? ` in ${path.join('.')}` : ''}${expected ? `: it holds ${expected}` : ''}`;
}
