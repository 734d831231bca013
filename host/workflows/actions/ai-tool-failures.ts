import type { StepResult, StopCondition, ToolSet } from 'ai';

/**
 * What a tool threw while running in the step, if anything. The AI SDK hands every tool error
 * back to the model and carries on; that suits the model's own mistakes (a tool that does not
 * exist, input that breaks the schema: it can correct them), but a tool that fails while
 * running (the database is down, the called task failed) must fail the step instead, so the run
 * is retried or reported rather than the model talking around the failure. `update_memory`
 * already returns a rejected value to the model as a normal result.
 */
export function toolFailure(step: StepResult<ToolSet> | undefined): { error: unknown } | undefined {
  const content = step?.content ?? [];
  // The SDK marks the model's unusable calls `invalid`; their errors are the model's to fix.
  const invalidCalls = new Set(content.flatMap((part) => (part.type === 'tool-call' && part.invalid ? [part.toolCallId] : [])));
  const failed = content.find((part) => part.type === 'tool-error' && !invalidCalls.has(part.toolCallId));
  return failed?.type === 'tool-error' ? { error: failed.error } : undefined;
}

/** Ends the tool loop right after a step in which a tool failed, sparing a pointless model call. */
export const stopOnToolFailure: StopCondition<ToolSet> = ({ steps }) => toolFailure(steps.at(-1)) !== undefined;
