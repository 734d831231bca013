import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateWorkflowYaml } from '../../../host/workflows/document/validate-workflow.ts';
import { fakeDefinitions } from './fake-definitions.ts';

/** A workflow of `ai_agent` tasks offering the given tools, plus a plain task `say`; the flow runs `a`. */
function agents(tools: Record<string, string[]>): string {
  const defs = Object.entries(tools).map(
    ([name, offered]) => `  ${name}:\n    kind: task\n    action: ai_agent\n    inputs:\n      prompt: hi\n      tools: [${offered.join(', ')}]\n`,
  );
  return `defs:
  brain:
    kind: model
    settings:
      provider: offline
      model_id: demo
  say:
    kind: task
    action: send_text_message
    inputs:
      text: hi
${defs.join('')}bindings:
  model: brain
flow:
  - do: a
`;
}

async function problemsOf(yaml: string) {
  return (await validateWorkflowYaml(yaml, fakeDefinitions())).problems.map(({ path, code, message }) => ({ path, code, message }));
}

test('two agents offering each other are reported at both tool entries, each naming the cycle', async () => {
  assert.deepEqual(await problemsOf(agents({ a: ['say', 'b'], b: ['a'] })), [
    { path: 'defs.a.inputs.tools.1', code: 'BOT_ERR_WORKFLOW_TOOL_CYCLE', message: '"b" leads back to "a" (a → b → a): agents cannot offer one another as tools in a cycle' },
    { path: 'defs.b.inputs.tools.0', code: 'BOT_ERR_WORKFLOW_TOOL_CYCLE', message: '"a" leads back to "b" (b → a → b): agents cannot offer one another as tools in a cycle' },
  ]);
});

test('a longer cycle is reported at every entry on it, and an entry merely leading into it is not', async () => {
  const problems = await problemsOf(agents({ a: ['b'], b: ['c'], c: ['d'], d: ['b'] }));
  assert.deepEqual(problems.map(({ path, code }) => [path, code]), [
    ['defs.b.inputs.tools.0', 'BOT_ERR_WORKFLOW_TOOL_CYCLE'],
    ['defs.c.inputs.tools.0', 'BOT_ERR_WORKFLOW_TOOL_CYCLE'],
    ['defs.d.inputs.tools.0', 'BOT_ERR_WORKFLOW_TOOL_CYCLE'],
  ]);
  assert.ok(problems[0]!.message.includes('(b → c → d → b)'), problems[0]!.message);
});

test('agents nested without a cycle, sharing a tool, are valid', async () => {
  assert.deepEqual(await problemsOf(agents({ a: ['b', 'c'], b: ['c', 'say'], c: ['say'] })), []);
});

test('an agent offering itself is reported once, as an invalid tool, not also as a cycle', async () => {
  assert.deepEqual((await problemsOf(agents({ a: ['say', 'a'] }))).map(({ path, code }) => [path, code]), [['defs.a.inputs.tools.1', 'BOT_ERR_WORKFLOW_TOOL_INVALID']]);
});

test('a tool listed twice closes its cycle once', async () => {
  assert.deepEqual((await problemsOf(agents({ a: ['b', 'b'], b: ['a'] }))).map(({ path, code }) => [path, code]), [
    ['defs.a.inputs.tools.0', 'BOT_ERR_WORKFLOW_TOOL_CYCLE'],
    ['defs.a.inputs.tools.1', 'BOT_ERR_WORKFLOW_TOOL_INVALID'],
    ['defs.b.inputs.tools.0', 'BOT_ERR_WORKFLOW_TOOL_CYCLE'],
  ]);
});
