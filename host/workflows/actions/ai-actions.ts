import type { WorkflowAction } from '../runtime/action.ts';
import { aiAgentAction } from './ai-agent.action.ts';
import { aiGenerateObjectAction } from './ai-generate-object.action.ts';
import { aiGenerateReplyAction } from './ai-generate-reply.action.ts';
import { aiGenerateTextAction } from './ai-generate-text.action.ts';
import { aiInferObjectAction } from './ai-infer-object.action.ts';

/** The five AI actions, for the runner's action table. */
export const AI_ACTIONS: readonly WorkflowAction[] = [
  aiGenerateReplyAction,
  aiGenerateTextAction,
  aiGenerateObjectAction,
  aiInferObjectAction,
  aiAgentAction,
];
