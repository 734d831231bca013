import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toRunInput } from '../../../host/dispatch/inbound-event-processor.ts';
import { INPUT_FIELDS } from '../../../host/workflows/document/run-variables.ts';
import { validateWorkflowYaml } from '../../../host/workflows/document/validate-workflow.ts';
import { fakeDefinitions, objectSchema, PROFILE_ID, VISIT_ID } from './fake-definitions.ts';
import { AGENT_WORKFLOW, VALID_WORKFLOW, variant } from './workflow-documents.ts';

const VISITOR_ID = '33333333-3333-4333-8333-333333333333';

/** `profile` (global), `visit` (thread, declared by no def) and `visitor` (workflow, declared below). */
const definitions = () =>
  fakeDefinitions([
    { id: PROFILE_ID, slug: 'profile', scope: 'global', schema: objectSchema({ name: { type: 'string', description: 'Name' } }) },
    { id: VISIT_ID, slug: 'visit', scope: 'thread', schema: objectSchema({ count: { type: 'integer', description: 'Visits' } }) },
    {
      id: VISITOR_ID,
      slug: 'visitor',
      scope: 'workflow',
      schema: objectSchema({
        name: { type: 'string', description: 'Name' },
        address: { type: 'object', description: 'Where', properties: { city: { type: 'string', description: 'City' } }, additionalProperties: false },
        tags: { type: 'array', description: 'Tags', items: { type: 'object', properties: { label: { type: 'string', description: 'Label' } }, additionalProperties: false } },
        extra: { type: 'object', description: 'Free-form', additionalProperties: true },
      }),
    },
  ]);

/** The valid workflow declaring `visitor`, with `say`'s text (line 19) set to `expression`. */
function withText(expression: string): string {
  return variant(
    VALID_WORKFLOW,
    ['  say:\n', `  visitor:\n    kind: memory\n    settings:\n      definition_id: ${VISITOR_ID}\n  say:\n`],
    [`      text: '="Hi " & $input.text'\n`, `      text: '=${expression}'\n`],
  );
}

async function problemsOf(yaml: string) {
  return (await validateWorkflowYaml(yaml, definitions())).problems;
}

/** The text at a problem's line and column, as far as `length` characters. */
function textAt(yaml: string, problem: { line?: number; column?: number }, length: number): string {
  return yaml.split('\n')[problem.line! - 1]!.slice(problem.column! - 1, problem.column! - 1 + length);
}

test('a mistyped memory slug is flagged at the column of the slug, with the slug it most likely meant', async () => {
  const yaml = withText('$context.memory.visitr.name');
  const [problem, ...others] = await problemsOf(yaml);
  assert.deepEqual(others, []);
  assert.equal(problem!.code, 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN');
  assert.equal(problem!.path, 'defs.say.inputs.text');
  assert.equal(problem!.line, 19);
  assert.equal(textAt(yaml, problem!, 6), 'visitr');
  assert.match(problem!.message, /did you mean `visitor`\?/);
});

test('a field its definition schema does not list is flagged with the field and the fields there are', async () => {
  const yaml = withText('$context.memory.visitor.nme');
  const [problem, ...others] = await problemsOf(yaml);
  assert.deepEqual(others, []);
  assert.equal(problem!.code, 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN');
  assert.equal(textAt(yaml, problem!, 3), 'nme');
  assert.match(problem!.message, /no field "nme".*did you mean `name`\?/);
});

test('fields are followed into nested objects and array items', async () => {
  const yaml = withText('$context.memory.visitor.address.cty & $context.memory.visitor.tags.lable');
  const problems = await problemsOf(yaml);
  assert.deepEqual(problems.map((problem) => textAt(yaml, problem, 5)), ['cty &', 'lable']);
});

test('a key of $context with its dot left out is flagged, suggesting the path meant', async () => {
  const yaml = withText('$context.memoryvisitor.name');
  const [problem, ...others] = await problemsOf(yaml);
  assert.deepEqual(others, []);
  assert.equal(textAt(yaml, problem!, 13), 'memoryvisitor');
  assert.match(problem!.message, /did you mean `\$context\.memory\.visitor`\?/);
});

test('the output of a task that does not exist, or runs later, is flagged', async () => {
  const missing = await problemsOf(withText('$outputs.nope'));
  assert.equal(missing.length, 1);
  assert.match(missing[0]!.message, /No task is named "nope"/);
  const later = await problemsOf(withText('$outputs.reply & $reply'));
  assert.deepEqual(later.map(({ code }) => code), ['BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN', 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN']);
  assert.match(later[0]!.message, /"reply" runs after "say"/);
});

test('an unknown $input field and thread memory no def declares are flagged', async () => {
  const problems = await problemsOf(withText('$input.txt & $context.memory.visit.count'));
  assert.deepEqual(problems.map(({ code }) => code), ['BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN', 'BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND']);
  assert.match(problems[0]!.message, /did you mean `text`\?/);
});

test('variables, lambdas, $$, functions, predicates, open schemas and global memory are not flagged', async () => {
  const fine = [
    '($n := $context.memory.visitor.name; $f := function($x) { $x & $n }; $f($input.text))',
    '$map($context.memory.visitor.tags, function($tag, $i) { $tag.label & $i })',
    '$context.memory.visitor.tags[label = "vip"].label & $$.anything & $.other',
    '$context.memory.visitor.extra.whatever.deeper & $context.memory.profile.name',
    '$exists($context.subscriber.firstName) ? $uppercase($context.source.name) : $string($input.payload.any)',
    '$context.memory.visitor.tags@$t#$pos.($t.label & $pos)',
  ];
  for (const expression of fine) assert.deepEqual(await problemsOf(withText(expression)), [], expression);
});

test('an output read by a later step, by name or under $outputs, is fine', async () => {
  const yaml = variant(VALID_WORKFLOW, ['      input_mode: history\n', "      input_mode: history\n      system: '=$say & $outputs.say'\n"]);
  assert.deepEqual(await problemsOf(yaml), []);
});

test('in a multi-line literal block, the problem sits on the line and column of the name', async () => {
  const yaml = variant(withText('""'), [`      text: '=""'\n`, '      text: |-\n        =(\n          $n := $context.memory.visitor.nmae;\n          "Hi " & $n\n        )\n']);
  const [problem, ...others] = await problemsOf(yaml);
  assert.deepEqual(others, []);
  assert.equal(problem!.line, 21);
  assert.equal(textAt(yaml, problem!, 4), 'nmae');
  assert.match(problem!.message, /did you mean `name`\?/);
});

test('the $input fields checked are the ones the dispatcher gives a run', () => {
  const event = {
    eventId: 'e1',
    channelName: 'web-chat',
    senderForeignId: 's1',
    occurredAt: '2026-01-01T00:00:00.000Z',
    message: { type: 'location', data: { text: 't', payload: 'p', attachments: [], location: { latitude: 1, longitude: 2 } } },
  } as unknown as Parameters<typeof toRunInput>[0];
  assert.deepEqual(Object.keys(toRunInput(event)).toSorted(), [...INPUT_FIELDS].toSorted());
});

test('a mistyped variable or function is flagged at its name, with the one meant; a JSONata function is not', async () => {
  const yaml = withText('$contxt.memory.visitor.name & $uppercase("a") & $lenght("b")');
  const problems = await problemsOf(yaml);
  assert.deepEqual(problems.map((problem) => textAt(yaml, problem, 6)), ['contxt', 'lenght']);
  assert.match(problems[0]!.message, /did you mean `\$context`\?/);
  assert.match(problems[1]!.message, /did you mean `\$length`\?/);
});

test("an agent's tool reads the tool call's arguments as $input, whatever their names", async () => {
  const yaml = variant(AGENT_WORKFLOW, [`'="Hi " & $input.text'`, `'="Hi " & $input.query'`]);
  assert.deepEqual(await problemsOf(yaml), []);
});
