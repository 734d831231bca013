import { z } from 'zod';
import type { ErrorCode } from '../../errors/error-codes.ts';

/** Where a problem is: keys and sequence indexes from the document root, e.g. `['flow', 0, 'do']`. */
export type YamlPath = readonly (string | number)[];

/**
 * A problem as a check finds it, before it is placed in the text. Checks only know paths; the
 * locator turns them into lines and columns once, for all checks alike.
 */
export interface FoundProblem {
  path: YamlPath;
  code: ErrorCode;
  message: string;
  /** For an expression: JSONata's character position in the text after "=". */
  position?: number | undefined;
}

/**
 * One problem of a workflow document as the API reports it. `path` is dot-joined
 * (`defs.greet.inputs.text`, `flow.0.do`; `''` for the document itself); `line` and `column`
 * (1-based) point at the value, or at the nearest enclosing key when the value is missing.
 */
export interface WorkflowProblem {
  path: string;
  line?: number;
  column?: number;
  code: ErrorCode;
  message: string;
  position?: number;
}

/** A problem as the OpenAPI document describes it. */
export const workflowProblemSchema = z.object({
  path: z.string().describe('Dot-joined YAML path, e.g. defs.greet.inputs.text or flow.0.do; empty for the whole document'),
  line: z.number().int().optional().describe('1-based line of the value, or of the nearest enclosing key when it is missing'),
  column: z.number().int().optional().describe('1-based column on that line'),
  code: z.string().describe('A BOT_ERR_WORKFLOW_* code (see docs/error-codes.md)'),
  message: z.string(),
  position: z.number().int().optional().describe('For an expression: the JSONata position in the text after "="'),
});

/** Dot-joins a path the way problems report it. */
export function formatYamlPath(path: YamlPath): string {
  return path.join('.');
}
