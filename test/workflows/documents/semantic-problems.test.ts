import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateWorkflowYaml } from '../../../host/workflows/document/validate-workflow.ts';
import { fakeDefinitions, PROFILE_ID, VISIT_ID } from './fake-definitions.ts';
import { AGENT_WORKFLOW, VALID_WORKFLOW, variant } from './workflow-documents.ts';

interface Case {
  problem: string;
  yaml: string;
  expected: { path: string; line: number; code: string };
  /** A fragment the message must hold. */
  says: string;
}

const CASES: Case[] = [
  {
    problem: 'a flow step naming no def',
    yaml: variant(VALID_WORKFLOW, ['  - do: say\n', '  - do: shout\n']),
    expected: { path: 'flow.0.do', line: 25, code: 'BOT_ERR_WORKFLOW_TASK_UNKNOWN' },
    says: 'No def is named "shout"',
  },
  {
    problem: 'a flow step naming a model def',
    yaml: variant(VALID_WORKFLOW, ['  - do: reply\n', '  - do: brain\n']),
    expected: { path: 'flow.1.do', line: 26, code: 'BOT_ERR_WORKFLOW_TASK_UNKNOWN' },
    says: '`kind: model` def, not a `kind: task` def',
  },
  {
    problem: 'an unknown action',
    yaml: variant(VALID_WORKFLOW, ['action: send_text_message', 'action: send_telegram']),
    expected: { path: 'defs.say.action', line: 13, code: 'BOT_ERR_WORKFLOW_ACTION_UNKNOWN' },
    says: 'Unknown action "send_telegram"',
  },
  {
    problem: 'a required input missing (located at the inputs key)',
    yaml: variant(VALID_WORKFLOW, [`      text: '="Hi " & $input.text'\n`, `      quick_replies: []\n`]),
    expected: { path: 'defs.say.inputs.text', line: 14, code: 'BOT_ERR_WORKFLOW_INPUT_MISSING' },
    says: 'send_text_message requires the input "text"',
  },
  {
    problem: 'an input the action does not take',
    yaml: variant(VALID_WORKFLOW, ['      input_mode: history\n', '      mode: history\n']),
    expected: { path: 'defs.reply.inputs.mode', line: 20, code: 'BOT_ERR_WORKFLOW_INPUT_UNKNOWN' },
    says: 'ai_generate_reply takes no input "mode"',
  },
  {
    problem: 'an AI task with no model, on the task or the workflow',
    yaml: variant(VALID_WORKFLOW, ['      model: brain\n', '']),
    expected: { path: 'defs.reply', line: 16, code: 'BOT_ERR_WORKFLOW_MODEL_MISSING' },
    says: 'needs a model',
  },
  {
    problem: "a task's model binding naming a task",
    yaml: variant(VALID_WORKFLOW, ['      model: brain\n', '      model: say\n']),
    expected: { path: 'defs.reply.bindings.model', line: 22, code: 'BOT_ERR_WORKFLOW_MODEL_UNKNOWN' },
    says: '"say" is a `kind: task` def, not a `kind: model` def',
  },
  {
    problem: "the workflow's model binding naming no def",
    yaml: variant(VALID_WORKFLOW, ['      model: brain\n', ''], ['flow:\n', 'bindings:\n  model: gpt\nflow:\n']),
    expected: { path: 'bindings.model', line: 24, code: 'BOT_ERR_WORKFLOW_MODEL_UNKNOWN' },
    says: 'No def is named "gpt"',
  },
  {
    problem: 'a model provider the host does not have',
    yaml: variant(VALID_WORKFLOW, ['provider: offline', 'provider: closedai']),
    expected: { path: 'defs.brain.settings.provider', line: 5, code: 'BOT_ERR_WORKFLOW_MODEL_PROVIDER_UNKNOWN' },
    says: '`openai-compatible` or `offline`',
  },
  {
    problem: "a task's memory binding naming a model def",
    yaml: variant(VALID_WORKFLOW, ['memory: [profile]', 'memory: [profile, brain]']),
    expected: { path: 'defs.reply.bindings.memory.1', line: 23, code: 'BOT_ERR_WORKFLOW_MEMORY_UNKNOWN' },
    says: '"brain" is a `kind: model` def, not a `kind: memory` def',
  },
  {
    problem: "the workflow's memory binding naming no def",
    yaml: variant(VALID_WORKFLOW, ['flow:\n', 'bindings:\n  memory:\n    - profile\n    - profiles\nflow:\n']),
    expected: { path: 'bindings.memory.1', line: 27, code: 'BOT_ERR_WORKFLOW_MEMORY_UNKNOWN' },
    says: 'No def is named "profiles"',
  },
  {
    problem: 'a memory def whose definition_id is no memory definition',
    yaml: variant(VALID_WORKFLOW, [PROFILE_ID, '33333333-3333-4333-8333-333333333333']),
    expected: { path: 'defs.profile.settings.definition_id', line: 10, code: 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN' },
    says: 'No memory definition has the id "33333333-3333-4333-8333-333333333333"',
  },
  {
    problem: 'a definition_id written as the slug (with a hint)',
    yaml: variant(VALID_WORKFLOW, [PROFILE_ID, 'profile']),
    expected: { path: 'defs.profile.settings.definition_id', line: 10, code: 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN' },
    says: `"profile" is the slug of the definition whose id is "${PROFILE_ID}"`,
  },
  {
    problem: 'an expression that does not compile',
    yaml: variant(VALID_WORKFLOW, [`'="Hi " & $input.text'`, `'="Hi " & '`]),
    expected: { path: 'defs.say.inputs.text', line: 15, code: 'BOT_ERR_WORKFLOW_EXPRESSION_INVALID' },
    says: 'The expression does not compile: ',
  },
  {
    problem: 'an expression deep inside an input',
    yaml: variant(VALID_WORKFLOW, [`      text: '="Hi " & $input.text'\n`, `      text: Hi\n      quick_replies: [{ title: '=$uppercase(', payload: A }]\n`]),
    expected: { path: 'defs.say.inputs.quick_replies.0.title', line: 16, code: 'BOT_ERR_WORKFLOW_EXPRESSION_INVALID' },
    says: 'The expression does not compile: ',
  },
  {
    problem: 'an update_memory task writing an unknown slug',
    yaml: variant(VALID_WORKFLOW, [
      `    action: send_text_message\n    inputs:\n      text: '="Hi " & $input.text'\n`,
      `    action: update_memory\n    inputs:\n      memory: { profil: { name: Ada } }\n`,
    ]),
    expected: { path: 'defs.say.inputs.memory.profil', line: 15, code: 'BOT_ERR_MEMORY_SLUG_UNKNOWN' },
    says: 'No memory definition has the slug "profil"',
  },
  {
    problem: 'an update_memory task writing thread memory no def declares',
    yaml: variant(VALID_WORKFLOW, [
      `    action: send_text_message\n    inputs:\n      text: '="Hi " & $input.text'\n`,
      `    action: update_memory\n    inputs:\n      memory: { visit: { count: 1 } }\n`,
    ]),
    expected: { path: 'defs.say.inputs.memory.visit', line: 15, code: 'BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND' },
    says: `"visit" is thread memory: declare it with a \`kind: memory\` def whose definition_id is "${VISIT_ID}"`,
  },
  {
    problem: 'a def named update_memory offered as a tool',
    yaml: variant(AGENT_WORKFLOW, ['  say:\n', '  update_memory:\n'], ['  - do: say\n', '  - do: update_memory\n'], ['tools: [say, reply]', 'tools: [update_memory, reply]']),
    expected: { path: 'defs.agent.inputs.tools.0', line: 29, code: 'BOT_ERR_WORKFLOW_TOOL_RESERVED' },
    says: '"update_memory" is reserved for the memory tool',
  },
  {
    problem: 'an agent offered as its own tool',
    yaml: variant(AGENT_WORKFLOW, ['tools: [say, reply]', 'tools: [say, agent]']),
    expected: { path: 'defs.agent.inputs.tools.1', line: 29, code: 'BOT_ERR_WORKFLOW_TOOL_INVALID' },
    says: '"agent" cannot be a tool of itself',
  },
  {
    problem: 'a tool naming a memory def',
    yaml: variant(AGENT_WORKFLOW, ['tools: [say, reply]', 'tools: [say, profile]']),
    expected: { path: 'defs.agent.inputs.tools.1', line: 29, code: 'BOT_ERR_WORKFLOW_TASK_UNKNOWN' },
    says: '"profile" is a `kind: memory` def, not a `kind: task` def',
  },
  {
    problem: 'a model def sending a named key to a base_url of its own',
    yaml: variant(VALID_WORKFLOW, [
      '      provider: offline\n      model_id: demo\n',
      '      provider: openai-compatible\n      model_id: demo\n      base_url: http://attacker.test/v1\n      api_key_env: BOT_AI_API_KEY_GROQ\n',
    ]),
    expected: { path: 'defs.brain.settings.base_url', line: 7, code: 'BOT_ERR_AI_MODEL_SETTINGS_INVALID' },
    says: 'cannot be set with api_key_env',
  },
  {
    problem: 'tools given as an expression rather than a list',
    yaml: variant(AGENT_WORKFLOW, ['tools: [say, reply]', `tools: '=["say"]'`]),
    expected: { path: 'defs.agent.inputs.tools', line: 29, code: 'BOT_ERR_WORKFLOW_TOOL_INVALID' },
    says: 'tools must be a list of task names',
  },
];

test('both base workflows are valid, so each case below has exactly its own problem', async () => {
  for (const yaml of [VALID_WORKFLOW, AGENT_WORKFLOW]) {
    const result = await validateWorkflowYaml(yaml, fakeDefinitions());
    assert.deepEqual(result.problems, []);
    assert.equal(result.valid, true);
  }
});

for (const { problem, yaml, expected, says } of CASES) {
  test(`reports ${problem} at ${expected.path}, line ${expected.line}`, async () => {
    const { valid, problems, document } = await validateWorkflowYaml(yaml, fakeDefinitions());
    assert.equal(valid, false);
    assert.equal(document, undefined);
    assert.deepEqual(
      problems.map(({ path, line, code }) => ({ path, line, code })),
      [expected],
    );
    assert.ok(problems[0]!.message.includes(says), `"${problems[0]!.message}" says ${says}`);
  });
}

test('an expression problem gives JSONata’s position and the column of that character', async () => {
  const yaml = variant(VALID_WORKFLOW, [`'="Hi " & $input.text'`, `'="Hi " & $input.text &'`]);
  const [problem] = (await validateWorkflowYaml(yaml, fakeDefinitions())).problems;
  // JSONata stops at the end of `"Hi " & $input.text &`, its 21st character: the dangling "&".
  assert.equal(problem!.position, 21);
  // `      text: '=` puts "=" in column 14, so that character is in column 14 + 21.
  assert.equal(problem!.column, 14 + 21);
  assert.equal(yaml.split('\n')[14]![problem!.column! - 1], '&');
});

test('a def named update_memory is allowed as a task; only offering it as a tool is refused', async () => {
  const yaml = variant(AGENT_WORKFLOW, ['  say:\n', '  update_memory:\n'], ['  - do: say\n', '  - do: update_memory\n'], ['tools: [say, reply]', 'tools: [reply]']);
  assert.deepEqual((await validateWorkflowYaml(yaml, fakeDefinitions())).problems, []);
});

test('every problem is reported in one pass, in the order of the text, shape and semantics together', async () => {
  const yaml = variant(
    VALID_WORKFLOW,
    ['provider: offline', 'provider: closedai'],
    ['    kind: memory\n', '    kind: memory\n    colour: blue\n'],
    ['action: send_text_message', 'action: send_telegram'],
    ['  - do: reply\n', '  - do: nobody\n'],
  );
  const { problems } = await validateWorkflowYaml(yaml, fakeDefinitions());
  assert.deepEqual(
    problems.map(({ path, line, code }) => ({ path, line, code })),
    [
      { path: 'defs.brain.settings.provider', line: 5, code: 'BOT_ERR_WORKFLOW_MODEL_PROVIDER_UNKNOWN' },
      { path: 'defs.profile.colour', line: 9, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' },
      { path: 'defs.say.action', line: 14, code: 'BOT_ERR_WORKFLOW_ACTION_UNKNOWN' },
      { path: 'flow.1.do', line: 27, code: 'BOT_ERR_WORKFLOW_TASK_UNKNOWN' },
    ],
  );
});

test('a reference to a def whose own kind is invalid is not reported twice', async () => {
  const yaml = variant(VALID_WORKFLOW, ['    kind: task\n    action: send_text_message\n', '    kind: tusk\n    action: send_text_message\n']);
  const { problems } = await validateWorkflowYaml(yaml, fakeDefinitions());
  assert.deepEqual(problems.map(({ path, code }) => ({ path, code })), [{ path: 'defs.say.kind', code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' }]);
});

test('memory definitions are looked up in two batched queries, however many defs and slugs there are', async () => {
  const many = Array.from({ length: 20 }, (_, index) => `  memory_${index}:\n    kind: memory\n    settings:\n      definition_id: ${PROFILE_ID}\n`).join('');
  const lookup = fakeDefinitions();
  const { valid } = await validateWorkflowYaml(variant(VALID_WORKFLOW, ['  say:\n', `${many}  say:\n`]), lookup);
  assert.equal(valid, true);
  assert.equal(lookup.calls, 2);
});
