import assert from 'node:assert/strict';
import type { TestApp } from '../../support/test-app.ts';

export const WORKFLOWS_URL = '/api/workflows';

/** A small valid workflow; with a definition id it also binds that memory definition. */
export function workflowYaml({ greeting = 'Hello', definitionId }: { greeting?: string; definitionId?: string } = {}): string {
  const memory = definitionId ? `  profile:\n    kind: memory\n    settings:\n      definition_id: ${definitionId}\n` : '';
  return `# a comment the text keeps
defs:
${memory}  say:
    kind: task
    action: send_text_message
    inputs:
      text: '="${greeting} " & $input.text'
flow:
  - do: say
`;
}

/** Saves a workflow as admin and returns the response body, failing the test on any other status. */
export async function createWorkflow(t: TestApp, name: string, yaml = workflowYaml()) {
  const response = await t.request('POST', WORKFLOWS_URL, { as: 'admin', body: { name, yaml } });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

/** A global memory definition, as admin; returns its id. */
export async function createMemoryDefinition(t: TestApp, name: string): Promise<string> {
  const response = await t.request('POST', '/api/memory-definitions', {
    as: 'admin',
    body: { name, scope: 'global', schema: { type: 'object', properties: { name: { type: 'string', description: 'A name' } } } },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.id;
}
