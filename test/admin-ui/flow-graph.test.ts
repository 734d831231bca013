import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { describeFlow } from '../../host/admin/src/pages/workflows/flow/describe-flow.ts';
import { findConditions } from '../../host/admin/src/pages/workflows/flow/find-conditions.ts';
import { buildFlowGraph } from '../../host/admin/src/pages/workflows/flow/flow-graph.ts';
import { wrapLabel } from '../../host/admin/src/pages/workflows/flow/wrap-label.ts';

const example = (file: string) => readFileSync(new URL(`../../workflows/examples/${file}`, import.meta.url), 'utf8');
const GREETING = example('greeting.yaml');

const AGENT_YAML = `defs:
  notes: { kind: memory, settings: { definition_id: notes } }
  lookup: { kind: task, action: ai_generate_text, inputs: { prompt: '=$input.text' } }
  helper:
    kind: task
    action: ai_agent
    inputs: { tools: [lookup, missing] }
bindings: { memory: [notes] }
flow:
  - do: helper
  - do: nowhere
`;

describe('flow graph', () => {
  test("reads the Greeting example's steps in order with the action each task runs", () => {
    const graph = buildFlowGraph(GREETING);
    assert.equal(graph.error, undefined);
    assert.deepEqual(graph.steps.map((step) => [step.position, step.task, step.action]), [
      [0, 'remember_name', 'update_memory'],
      [1, 'greet', 'send_text_message'],
    ]);
  });

  test("reads the Greeting example's conditional inputs as branches with their test, then and else", () => {
    const [remember, greet] = buildFlowGraph(GREETING).steps;
    assert.deepEqual(remember?.conditions.map(({ input, test: condition, else: otherwise }) => ({ input, condition, otherwise })), [{ input: 'memory', condition: '$name', otherwise: '{}' }]);
    assert.match(remember?.conditions[0]?.then ?? '', /^\{ "profile": \$merge/);
    assert.deepEqual(greet?.conditions, [
      { input: 'text', index: 0, test: '$exists($context.memory.profile.name)', then: '"Hello " & $context.memory.profile.name & "!"', else: '"Hello! What is your name?"' },
    ]);
  });

  test('reads the memory each Greeting step touches: the update writes profile, both read it', () => {
    const steps = buildFlowGraph(GREETING).steps;
    assert.deepEqual(steps.map((step) => step.memory), [[{ name: 'profile', access: ['reads', 'writes'] }], [{ name: 'profile', access: ['reads'] }]]);
  });

  test('an update writes the slugs its outermost object names, not the properties of the values inside', () => {
    // The def is named `colour` like a property of the value: a name match would count it as written.
    const yaml = `defs:
  colour: { kind: memory, settings: { definition_id: x } }
  remember:
    kind: task
    action: update_memory
    inputs:
      memory: '={ "favourite_colour": { "colour": $input.text, "seen": [{ "at": "now" }] } }'
flow:
  - do: remember
`;
    assert.deepEqual(buildFlowGraph(yaml).steps[0]?.memory, [{ name: 'favourite_colour', access: ['writes'] }]);
  });

  test('an AI task without bindings of its own takes the workflow memory; an agent branches to its tools', () => {
    const [helper, nowhere] = buildFlowGraph(AGENT_YAML).steps;
    assert.deepEqual(helper?.memory, [{ name: 'notes', access: ['bound'] }]);
    assert.deepEqual(helper?.tools, [{ task: 'lookup', action: 'ai_generate_text' }, { task: 'missing' }]);
    assert.equal(nowhere?.action, undefined, 'a step naming no task has no action');
    assert.deepEqual(buildFlowGraph(example('ai-reply.yaml')).steps[0]?.memory, [{ name: 'profile', access: ['bound'] }]);
  });

  test('describes the flow in words for screen readers, the failing step marked', () => {
    assert.equal(
      describeFlow(buildFlowGraph(GREETING), 1),
      'Flow of 2 steps. Step 1, remember_name: runs update_memory; memory profile (reads, writes); memory depends on $name. ' +
        'Step 2, greet (failed): runs send_text_message; memory profile (reads); text depends on $exists($context.memory.profile.name).',
    );
  });

  test('marks in words only the step at the failing position when a task appears twice', () => {
    const twice = 'defs:\n  say: { kind: task, action: send_text_message }\nflow:\n  - do: say\n  - do: say\n';
    assert.equal(describeFlow(buildFlowGraph(twice), 1), 'Flow of 2 steps. Step 1, say: runs send_text_message. Step 2, say (failed): runs send_text_message.');
  });

  const broken: [string, string][] = [
    ['an unclosed flow sequence', GREETING.replace('- do: greet', '- do: [greet')],
    ['a tab as indentation', GREETING.replace('  - do: greet', '\t- do: greet')],
    ['a half-typed key', `${GREETING}\nflo`],
    ['a scalar document', 'just text'],
    ['an empty document', ''],
    ['a flow that is not a list', 'flow: remember_name'],
    ['steps that are not mappings', 'flow: [1, null, [x]]'],
  ];
  for (const [what, yaml] of broken) {
    test(`does not throw on ${what}: it still draws steps and says what is wrong`, () => {
      const previous = buildFlowGraph(GREETING);
      const graph = buildFlowGraph(yaml, previous);
      assert.equal(typeof graph.error, 'string');
      assert.ok(graph.steps.length > 0);
      assert.doesNotThrow(() => buildFlowGraph(yaml));
    });
  }

  test('a parse error without a previous graph gives the steps that could be read', () => {
    const graph = buildFlowGraph(GREETING.replace('- do: greet', '- do: [greet'));
    assert.match(graph.error ?? '', /at line \d+, column \d+/);
    assert.equal(graph.steps[0]?.task, 'remember_name');
  });
});

describe('conditions in expressions', () => {
  const cases: [string, string, [string, string, string][]][] = [
    ['a plain conditional', '$x > 1 ? "big" : "small"', [['$x > 1', '"big"', '"small"']]],
    ['one nested in each branch', 'a ? (b ? 1 : 2) : c ? 3 : 4', [['a', '(b ? 1 : 2)', 'c ? 3 : 4'], ['b', '1', '2'], ['c', '3', '4']]],
    ['a "?" in a string or a regex', '$match($s, /why?/) ? "what?" : "no"', [['$match($s, /why?/)', '"what?"', '"no"']]],
    ['an object value', '{ "k": a ? 1 : 2 }', [['a', '1', '2']]],
    ['coalescing and default operators', '$a ?? $b ?: $c', []],
    ['a conditional still being typed', '$a ? ', []],
  ];
  for (const [what, expression, expected] of cases) {
    test(`finds ${what}`, () => {
      assert.deepEqual(findConditions(expression).map((condition) => [condition.test, condition.then, condition.else]), expected);
    });
  }
});

describe('labels wrapped to fit the drawing', () => {
  const cases: [string, string, string[]][] = [
    ['a short label on one line', 'text: if $a', ['text: if $a']],
    ['a long test broken after a path dot', 'text: if $exists($context.memory.profile.name)', ['text: if $exists($context.memory.', 'profile.name)']],
    ['a word with no break in its second half cut mid-word', 'x '.concat('y'.repeat(40)), ['x '.concat('y'.repeat(32)), 'y'.repeat(8)]],
    ['text past two lines cut with an ellipsis', 'a '.repeat(40).trim(), ['a '.repeat(17), `${'a '.repeat(16)}a…`]],
  ];
  for (const [what, text, expected] of cases) {
    test(`gives ${what}`, () => {
      assert.deepEqual(wrapLabel(text, 34, 2), expected);
    });
  }
});
