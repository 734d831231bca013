import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWorkflowYaml } from '../../../host/workflows/document/parse-workflow-yaml.ts';
import { VALID_WORKFLOW, variant } from './workflow-documents.ts';

interface SyntaxCase {
  typo: string;
  yaml: string;
  line: number;
  says: RegExp;
}

const SYNTAX_CASES: SyntaxCase[] = [
  {
    typo: 'two keys joined on one line (Enter swallowed)',
    yaml: variant(VALID_WORKFLOW, ['    kind: task\n    action: send_text_message\n', '    kind: taskaction: send_text_message\n']),
    line: 12,
    says: /^Line 12 has a second ": " after "kind:"/,
  },
  { typo: 'a key without its colon', yaml: variant(VALID_WORKFLOW, ['    action: send_text_message\n', '    action send_text_message\n']), line: 13, says: /^Line 13 has no ":" after its key/ },
  { typo: 'a key indented deeper than its siblings', yaml: variant(VALID_WORKFLOW, ['    action: send_text_message\n', '      action: send_text_message\n']), line: 13, says: /^Line 13 is indented deeper than "kind"/ },
  { typo: 'a key indented less than its siblings', yaml: variant(VALID_WORKFLOW, ['    action: send_text_message\n', '   action: send_text_message\n']), line: 13, says: /^Line 13 is not aligned/ },
  { typo: 'a quote never closed', yaml: variant(VALID_WORKFLOW, [`'="Hi " & $input.text'`, `'="Hi " & $input.text`]), line: 15, says: /^Line 15: the value opened with ' is never closed/ },
  { typo: 'a list never closed', yaml: variant(VALID_WORKFLOW, ['memory: [profile]', 'memory: [profile']), line: 24, says: /^Line 24: a list opened with "\[" is not closed/ },
];

for (const { typo, yaml, line, says } of SYNTAX_CASES) {
  test(`${typo} is one syntax problem, in plain words, at the typo's line ${line}`, () => {
    const { problems } = parseWorkflowYaml(yaml);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.equal(problems[0]!.code, 'BOT_ERR_WORKFLOW_YAML_SYNTAX');
    assert.equal(problems[0]!.line, line);
    assert.match(problems[0]!.message, says);
  });
}

test('a shape problem names the key and what belongs there, in plain words', () => {
  const cases: [yaml: string, path: string, message: string][] = [
    [variant(VALID_WORKFLOW, ['  - do: say\n  - do: reply\n', '  do: say\n']), 'flow', '`flow` must be a list of steps like `- do: <task>`, not a map'],
    [variant(VALID_WORKFLOW, ['  - do: say\n', '  - say\n']), 'flow.0', 'Step 1 of `flow` must be a step like `do: <task>`, not the text "say"'],
    [variant(VALID_WORKFLOW, ['memory: [profile]', 'memory: profile']), 'defs.reply.bindings.memory', '`memory` (in defs.reply.bindings) must be a list of `kind: memory` def names, like `[profile]`, not the text "profile"'],
    [variant(VALID_WORKFLOW, ['      input_mode: history\n', '      - history\n']), 'defs.reply.inputs', '`inputs` (in defs.reply) must be a map of input names to values, like `text: Hello`, not a list'],
  ];
  for (const [yaml, path, message] of cases) {
    assert.deepEqual(parseWorkflowYaml(yaml).problems.map((problem) => ({ path: problem.path, message: problem.message })), [{ path, message }]);
  }
});
