import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunStep } from '../../host/admin/src/api/api-types.ts';
import { describeFlow } from '../../host/admin/src/pages/workflows/flow/describe-flow.ts';
import { buildFlowGraph } from '../../host/admin/src/pages/workflows/flow/flow-graph.ts';
import { branchTaken, stepRunState } from '../../host/admin/src/pages/workflows/flow/run-marks.ts';

const YAML = `defs:
  greet: { kind: task, action: send_text_message, inputs: { text: '=$a ? "x" : ($b ? "y" : "z")' } }
  bye: { kind: task, action: send_text_message, inputs: { text: Bye } }
flow:
  - do: greet
  - do: bye
`;

function ranStep(position: number, branches: RunStep['branches']): RunStep {
  return { position, task: 'greet', action: 'send_text_message', status: 'succeeded', reused: false, inputs: {}, output: null, error: null, branches, startedAt: '', finishedAt: '' };
}

describe('a run drawn on the flow', () => {
  const graph = buildFlowGraph(YAML);
  const greet = graph.steps[0]!;

  test("numbers an input's conditions by the order of their `?`, as the runner records them", () => {
    assert.deepEqual(greet.conditions.map((condition) => [condition.input, condition.index, condition.test]), [['text', 0, '$a'], ['text', 1, '$b']]);
  });

  test('a step the run has no record of was not reached, or not yet while the run runs', () => {
    const run = { status: 'failed', steps: [ranStep(0, [])] };
    assert.equal(stepRunState(run, 0).state, 'succeeded');
    assert.equal(stepRunState(run, 1).state, 'not-reached');
    assert.equal(stepRunState({ ...run, status: 'running' }, 1).state, 'running');
  });

  test('each condition shows the branch its step took; one never evaluated shows none', () => {
    const step = ranStep(0, [{ input: 'text', index: 0, took: 'else' }]);
    assert.equal(branchTaken(step, greet.conditions[0]!), 'else');
    assert.equal(branchTaken(step, greet.conditions[1]!), undefined);
    const run = { status: 'succeeded', steps: [ranStep(0, [{ input: 'text', index: 0, took: 'else' }, { input: 'text', index: 1, took: 'then' }])] };
    assert.equal(describeFlow(graph, undefined, run), 'Flow of 2 steps. Step 1, greet (succeeded): runs send_text_message; text depends on $a (took else); text depends on $b (took then). Step 2, bye (not reached): runs send_text_message.');
  });
});
