import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWorkflowYaml } from '../../../host/workflows/document/parse-workflow-yaml.ts';
import { validateWorkflowYaml } from '../../../host/workflows/document/validate-workflow.ts';
import { fakeDefinitions } from './fake-definitions.ts';
import { VALID_WORKFLOW, variant } from './workflow-documents.ts';

const placed = (problems: { path: string; line?: number; column?: number; code: string }[]) =>
  problems.map(({ path, line, column, code }) => ({ path, line, column, code }));

test('a YAML syntax error is reported with its line and column, and nothing else is checked', async () => {
  const yaml = variant(VALID_WORKFLOW, ['memory: [profile]', 'memory: [profile']);
  const { valid, problems } = await validateWorkflowYaml(yaml, fakeDefinitions());
  assert.equal(valid, false);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.code, 'BOT_ERR_WORKFLOW_YAML_SYNTAX');
  assert.equal(problems[0]!.path, '');
  assert.equal(problems[0]!.line, 24, problems[0]!.message);
});

test('a key written twice is a syntax error on the second one', () => {
  const yaml = variant(VALID_WORKFLOW, ['      model_id: demo\n', '      model_id: demo\n      model_id: other\n']);
  assert.deepEqual(placed(parseWorkflowYaml(yaml).problems), [{ path: '', line: 7, column: 7, code: 'BOT_ERR_WORKFLOW_YAML_SYNTAX' }]);
});

test('more aliases than a workflow needs are refused, not expanded', () => {
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let index = 1; index < 12; index += 1) lines.push(`a${index}: &a${index} [${Array(10).fill(`*a${index - 1}`).join(', ')}]`);
  const { wellFormed, problems } = parseWorkflowYaml(lines.join('\n'));
  assert.equal(wellFormed, false);
  assert.equal(problems[0]!.code, 'BOT_ERR_WORKFLOW_YAML_SYNTAX');
});

test('an unknown key is reported at its own line', () => {
  const yaml = variant(VALID_WORKFLOW, ['    kind: memory\n', '    kind: memory\n    colour: blue\n']);
  assert.deepEqual(placed(parseWorkflowYaml(yaml).problems), [{ path: 'defs.profile.colour', line: 9, column: 13, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' }]);
});

test('a missing key is reported at the entry that lacks it', () => {
  const { problems } = parseWorkflowYaml(variant(VALID_WORKFLOW, ['    action: send_text_message\n', '']));
  assert.deepEqual(placed(problems), [{ path: 'defs.say.action', line: 11, column: 3, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' }]);
  assert.match(problems[0]!.message, /^`action` \(in defs\.say\) is required: the name of an action \(send_text_message, /);
});

test('an unknown kind, a bad def name and an empty flow are each reported where they are written', () => {
  const yaml = variant(VALID_WORKFLOW, ['    kind: model\n', '    kind: modle\n'], ['  profile:\n', '  my profile:\n'], ['flow:\n  - do: say\n  - do: reply\n', 'flow: []\n']);
  const { problems } = parseWorkflowYaml(yaml);
  assert.deepEqual(placed(problems), [
    { path: 'defs.brain.kind', line: 3, column: 11, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' },
    { path: 'defs.my profile', line: 7, column: 3, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' },
    { path: 'flow', line: 24, column: 1, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' },
  ]);
  assert.equal(problems[0]!.message, '"kind" must be memory, model or task');
  assert.match(problems[1]!.message, /^Invalid name "my profile": /);
});

test('an empty text is a document of the wrong shape, not a crash', () => {
  assert.deepEqual(placed(parseWorkflowYaml('').problems), [{ path: '', line: undefined, column: undefined, code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID' }]);
});

test('a yaml-language-server comment on the first line is only a comment', async () => {
  const yaml = `# yaml-language-server: $schema=../schemas/workflow.schema.json\n${VALID_WORKFLOW}`;
  const withComment = await validateWorkflowYaml(yaml, fakeDefinitions());
  const without = await validateWorkflowYaml(VALID_WORKFLOW, fakeDefinitions());
  assert.deepEqual(withComment.problems, []);
  assert.deepEqual(withComment.document, without.document);
});

test('a valid document parses to the data it writes', () => {
  const { document, problems } = parseWorkflowYaml(VALID_WORKFLOW);
  assert.deepEqual(problems, []);
  assert.deepEqual(document?.flow, [{ do: 'say' }, { do: 'reply' }]);
  assert.deepEqual(document?.defs.reply, {
    kind: 'task',
    action: 'ai_generate_reply',
    inputs: { input_mode: 'history' },
    bindings: { model: 'brain', memory: ['profile'] },
  });
});
