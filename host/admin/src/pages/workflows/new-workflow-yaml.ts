/** What a new workflow starts with: one task that answers every message. */
export const NEW_WORKFLOW_YAML = `description: Answers every message
defs:
  reply:
    kind: task
    action: send_text_message
    inputs:
      text: '="You said: " & $input.text'
flow:
  - do: reply
`;
