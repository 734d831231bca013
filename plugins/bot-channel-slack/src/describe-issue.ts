import type { z } from '@bot-ai/api';

/**
 * The first problem zod found, with its path, for a `PayloadRejectedError` message:
 * `The event_callback: event_id: Invalid input: expected string, received undefined`.
 * @example throw new PayloadRejectedError(describeIssue(parsed.error, 'The event_callback'));
 */
export function describeIssue(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  if (!issue) return `${what} is not in Slack's format`;
  const path = issue.path.map(String).join('.');
  return `${what}: ${path ? `${path}: ` : ''}${issue.message}`;
}
