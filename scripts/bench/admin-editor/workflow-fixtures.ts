/**
 * Workflows for the editor benchmark: valid YAML of `steps` small tasks, each a step of the flow,
 * padded with comment lines up to `lines` when asked.
 */
export function benchWorkflowYaml({ steps, lines = 0, prefix = 'step' }: { steps: number; lines?: number; prefix?: string }): string {
  const tasks = Array.from({ length: steps }, (_, index) => `  ${prefix}_${index}:\n    kind: task\n    description: Step ${index} of a long workflow\n    action: send_text_message\n    inputs:\n      text: '="Step ${index}: " & $input.text'`);
  const flow = Array.from({ length: steps }, (_, index) => `  - do: ${prefix}_${index}`);
  const yaml = ['description: A workflow for the editor benchmark', 'defs:', ...tasks, 'flow:', ...flow].join('\n');
  const padding = Math.max(0, lines - yaml.split('\n').length);
  return `${'# padding\n'.repeat(padding)}${yaml}\n`;
}

/** The 19-line workflow of the report: two steps. */
export const SMALL_WORKFLOW_YAML = benchWorkflowYaml({ steps: 2, lines: 19 });
/** 2,000 lines: 249 steps of 7 lines and their flow entries. */
export const LARGE_WORKFLOW_YAML = benchWorkflowYaml({ steps: 249, lines: 2_000 });
