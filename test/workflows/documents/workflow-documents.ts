import assert from 'node:assert/strict';
import { PROFILE_ID } from './fake-definitions.ts';

/**
 * A valid workflow with one def of each kind, an AI task and a plain one. Cases change one line
 * of it at a time, so the line numbers below stay true.
 */
export const VALID_WORKFLOW = `defs:
  brain:
    kind: model
    settings:
      provider: offline
      model_id: demo
  profile:
    kind: memory
    settings:
      definition_id: ${PROFILE_ID}
  say:
    kind: task
    action: send_text_message
    inputs:
      text: '="Hi " & $input.text'
  reply:
    kind: task
    action: ai_generate_reply
    inputs:
      input_mode: history
    bindings:
      model: brain
      memory: [profile]
flow:
  - do: say
  - do: reply
`;

/** The valid workflow plus an agent with tools (lines 24-31), which the flow runs instead of reply. */
export const AGENT_WORKFLOW = VALID_WORKFLOW.replace(
  'flow:\n',
  `  agent:
    kind: task
    action: ai_agent
    inputs:
      prompt: =$input.text
      tools: [say, reply]
    bindings:
      model: brain
flow:
`,
).replace('  - do: reply\n', '  - do: agent\n');

/** The workflow with each `[from, to]` replaced, every `from` found exactly once. */
export function variant(base: string, ...replacements: [from: string, to: string][]): string {
  return replacements.reduce((text, [from, to]) => {
    assert.equal(text.split(from).length, 2, `"${from}" occurs exactly once`);
    return text.replace(from, to);
  }, base);
}
