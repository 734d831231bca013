import type { FlowGraph, FlowStep } from './flow-graph.ts';
import { branchTaken, STEP_RUN_LABELS, stepRunState, type DrawnRun } from './run-marks.ts';

/**
 * The flow in words, for screen readers (the drawing's `aria-label`): each step, its action,
 * memory, conditions and tools, and which one failed (by its position: a task may run twice);
 * with a drawn run, what each step did and the branch each condition took.
 *
 * @example
 * describeFlow({ steps: [] }) // 'Flow: no steps.'
 * describeFlow(graph, 1) // '… Step 2, greet (failed): runs send_text_message …'
 */
export function describeFlow(graph: FlowGraph, failingPosition?: number, run?: DrawnRun): string {
  if (graph.steps.length === 0) return 'Flow: no steps.';
  const count = `${graph.steps.length} step${graph.steps.length === 1 ? '' : 's'}`;
  return [`Flow of ${count}.`, ...graph.steps.map((step) => describeStep(step, step.position === failingPosition, run))].join(' ');
}

function describeStep(step: FlowStep, failed: boolean, run: DrawnRun | undefined): string {
  const ran = run && stepRunState(run, step.position);
  const state = failed ? 'failed' : ran && STEP_RUN_LABELS[ran.state];
  const parts = [`Step ${step.position + 1}, ${step.task || '(no task)'}${state ? ` (${state})` : ''}: ${step.action ? `runs ${step.action}` : 'names no task'}`];
  if (step.memory.length > 0) parts.push(`memory ${step.memory.map((touch) => `${touch.name} (${touch.access.join(', ')})`).join(', ')}`);
  for (const condition of step.conditions) {
    const took = ran?.step && branchTaken(ran.step, condition);
    parts.push(`${condition.input} depends on ${condition.test}${took ? ` (took ${took})` : ''}`);
  }
  if (step.tools.length > 0) parts.push(`may call ${step.tools.map((tool) => tool.task).join(', ')}`);
  return `${parts.join('; ')}.`;
}
