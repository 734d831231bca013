import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { addBranch, addStep, asJsonata, setTaskInput, taskInputs } from '../../host/admin/src/pages/workflows/canvas/yaml-edits.ts';
import { stepAtOffset, stepSelection } from '../../host/admin/src/pages/workflows/canvas/step-sources.ts';
import { minimalChange } from '../../host/admin/src/pages/workflows/editor/minimal-change.ts';
import { parseWorkflowYaml } from '../../host/workflows/document/parse-workflow-yaml.ts';

const GREETING = readFileSync(new URL('../../workflows/examples/greeting.yaml', import.meta.url), 'utf8');

/** The lines of `after` that differ from `before`'s, with the change's bounds. */
function changedLines(before: string, after: string): string[] {
  const change = minimalChange(before, after);
  assert.ok(change, 'the text changed');
  const from = before.lastIndexOf('\n', change.from - 1) + 1;
  const to = after.indexOf('\n', change.from + change.insert.length);
  return after.slice(from, to < 0 ? undefined : to).split('\n');
}

describe('canvas edits of the YAML', () => {
  test("setting a step's input changes that line only: comments, quoting, long lines and key order stay", () => {
    const edited = setTaskInput(GREETING, 'greet', 'text', 'Hi there');
    assert.deepEqual(changedLines(GREETING, edited), ["      text: 'Hi there'"]);
    assert.match(edited, /# A complete value replaces the stored one/);
    const back = setTaskInput(edited, 'greet', 'text', taskInputs(GREETING, 'greet').text);
    assert.equal(back, GREETING);
  });

  test('adding a step writes a def with the action’s required inputs and a flow item at the position, and the result is a valid workflow', () => {
    const { yaml, task } = addStep(GREETING, 'send_text_message', 1);
    assert.equal(task, 'send_text_message');
    assert.deepEqual(taskInputs(yaml, task), { text: 'Hello!' });
    assert.match(yaml, /flow:\n {2}- do: remember_name\n {2}- do: send_text_message\n {2}- do: greet\n/);
    assert.ok(yaml.startsWith(GREETING.slice(0, GREETING.indexOf('flow:'))), 'everything before the new def is untouched');
    const again = addStep(yaml, 'send_text_message', 9);
    assert.equal(again.task, 'send_text_message_2');
    assert.match(again.yaml, / {2}- do: send_text_message_2\n$/);
    assert.deepEqual(parseWorkflowYaml(again.yaml).problems, []);
  });

  test('adding a branch turns an input into `=test ? then : else`, from its value as JSONata', () => {
    const yaml = addBranch(GREETING, 'greet', 'text', { test: '$input.text = "hi"', then: asJsonata('Hi!'), else: asJsonata('=$input.text') });
    assert.equal(taskInputs(yaml, 'greet').text, '=$input.text = "hi" ? "Hi!" : ($input.text)');
  });

  test('an edit of YAML that does not parse is refused with the parser’s reason', () => {
    assert.throws(() => setTaskInput('defs: [', 'greet', 'text', 'x'), /fix them in the text first/);
  });

  test('a step’s selection is its task def; an offset in a def or a flow item gives its step', () => {
    const selection = stepSelection(GREETING, 1);
    assert.ok(selection);
    assert.match(GREETING.slice(selection.from, selection.to), /^greet:\n {4}kind: task\n {4}action: send_text_message\n {4}inputs:\n {6}text: '/);
    assert.equal(stepAtOffset(GREETING, GREETING.indexOf('action: update_memory')), 0);
    assert.equal(stepAtOffset(GREETING, GREETING.indexOf('do: greet') + 4), 1);
    assert.equal(stepAtOffset(GREETING, GREETING.indexOf('description: Greets')), undefined);
  });

  test('the minimal change keeps the common start and end', () => {
    assert.deepEqual(minimalChange('text: Hi\nflow: []', 'text: Hello\nflow: []'), { from: 7, to: 8, insert: 'ello' });
    assert.equal(minimalChange('same', 'same'), undefined);
    assert.deepEqual(minimalChange('aaa', 'aaaa'), { from: 3, to: 3, insert: 'a' });
  });
});
