import { AI_ACTIONS } from './actions/ai-actions.ts';
import { sendTextMessageAction } from './actions/send-text-message.action.ts';
import { updateMemoryAction } from './actions/update-memory.action.ts';
import type { WorkflowAction } from './runtime/action.ts';

/** Every action the runtime has, by name; the save-time check uses ACTION_SPECS, a test keeps the two equal. */
export const WORKFLOW_ACTIONS: ReadonlyMap<string, WorkflowAction> = new Map(
  [sendTextMessageAction, updateMemoryAction, ...AI_ACTIONS].map((action) => [action.name, action]),
);
