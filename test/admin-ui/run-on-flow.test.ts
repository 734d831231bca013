import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { RunStep } from '../../host/admin/src/api/api-types.ts';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expect, expectUrl } from './expect-page.ts';

// Issue 23: a run drawn on the flow: each step's outcome, the branch each condition took, and a
// step's inputs and output on click; in the editor after a test run and on the run's page.
const skip = browserSkipReason();

const BRANCHING = `description: Answers "hi" one way, anything else another
defs:
  greet:
    kind: task
    action: send_text_message
    inputs:
      text: '=$input.text = "hi" ? "Hello!" : "Say hi first"'
  detail:
    kind: task
    action: send_text_message
    inputs:
      text: '=$contains($input.text, "x") ? "has an x" : ($input.text = "hi" ? "just hi" : "something else")'
flow:
  - do: greet
  - do: detail
`;

// The second step writes a slug no definition binds: it fails, and the third is never reached.
const FAILING = `defs:
  greet:
    kind: task
    action: send_text_message
    inputs:
      text: Hello
  remember:
    kind: task
    action: update_memory
    inputs:
      memory: '={ "nowhere": { "x": 1 } }'
  bye:
    kind: task
    action: send_text_message
    inputs:
      text: Bye
flow:
  - do: greet
  - do: remember
  - do: bye
`;

describe('a run drawn on the flow', { skip }, () => {
  let admin: AdminHost;
  const ids = new Map<string, string>();
  before(async () => {
    admin = await startAdminHost();
    for (const [name, yaml] of [['Branching', BRANCHING], ['Failing', FAILING]]) {
      const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name, yaml });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ids.set(name!, created.body.id);
    }
    await admin.page.goto(await admin.loginLink());
    await expectUrl(admin.page, /\/workflows/);
  });
  after(() => admin?.close());

  const flowIn = (scope: Page | Locator) => scope.getByTestId('flow-view');
  const took = (flow: Locator, task: string) => flow.locator(`.flow-step[data-step="${task}"] + .flow-side .flow-condition`).evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-took')));

  async function testRun(workflow: string, text: string): Promise<{ id: string; status: string; steps: RunStep[] }> {
    const run = await admin.api<{ id: string; status: string; steps: RunStep[] }>('POST', `/api/workflows/${ids.get(workflow)}/runs`, { input: { text } });
    assert.equal(run.status, 200, JSON.stringify(run.body));
    return run.body;
  }

  test('the run records, per step, the branch each condition took', async () => {
    const run = await testRun('Branching', 'hi');
    assert.equal(run.status, 'succeeded');
    assert.deepEqual(run.steps.map((step) => step.branches), [[{ input: 'text', index: 0, took: 'then' }], [{ input: 'text', index: 0, took: 'else' }, { input: 'text', index: 1, took: 'then' }]]);
    const stored = await admin.api<{ steps: RunStep[] }>('GET', `/api/runs/${run.id}`);
    assert.deepEqual(stored.body.steps.map((step) => step.branches), run.steps.map((step) => step.branches));
  });

  test("the run's page draws each step's outcome and the branch each condition took; a step shows its inputs and output on click", async () => {
    const { page } = admin;
    const run = await testRun('Branching', 'hi');
    await page.goto(`${admin.host.url}/runs/${run.id}`);
    const flow = flowIn(page.getByRole('region', { name: 'The run on the flow' }));
    await expect(flow.locator('.flow-step[data-step="greet"].run-succeeded')).visible();
    await expect(flow.locator('.flow-step[data-step="detail"].run-succeeded')).visible();
    assert.deepEqual(await took(flow, 'greet'), ['then']);
    assert.deepEqual(await took(flow, 'detail'), ['else', 'then']);
    assert.deepEqual(await flow.locator('.flow-step[data-step="greet"] + .flow-side .flow-branch.taken .flow-edge-label').allTextContents(), ['then']);
    assert.match((await flow.getByRole('img').getAttribute('aria-label')) ?? '', /Step 1, greet \(succeeded\).*text depends on \$input\.text = "hi" \(took then\)/);

    await flow.locator('.flow-step[data-step="greet"]').click();
    const panel = page.getByRole('complementary', { name: 'Step 1, greet' });
    await expect(panel.getByRole('region', { name: 'This step in the run' })).contains('succeeded');
    await expect(panel.locator('pre').first()).contains('"text": "Hello!"');
    await expect(panel.locator('pre').nth(1)).contains('"text": "Hello!"');
    assert.equal(await panel.getByRole('form').count(), 0, 'a run is not edited');
    await flow.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'run-detail-flow');
  });

  test('a failed run marks the failed step and the steps it never reached', async () => {
    const { page } = admin;
    const run = await testRun('Failing', 'hi');
    assert.equal(run.status, 'failed');
    await page.goto(`${admin.host.url}/runs/${run.id}`);
    const flow = flowIn(page.getByRole('region', { name: 'The run on the flow' }));
    await expect(flow.locator('.flow-step[data-step="greet"].run-succeeded')).visible();
    await expect(flow.locator('.flow-step[data-step="remember"].run-failed.failed')).contains('failed');
    await expect(flow.locator('.flow-step[data-step="bye"].run-not-reached')).contains('not reached');
    await flow.locator('.flow-step[data-step="bye"]').click();
    await expect(page.getByRole('complementary', { name: 'Step 3, bye' })).contains('The run ended before this step.');
  });

  test('a test run in the editor draws the branches it took on the flow beside the YAML', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/${ids.get('Branching')}`);
    const flow = flowIn(page);
    await expect(flow.locator('.flow-step[data-step="greet"]')).visible();
    assert.equal(await flow.locator('.flow-condition[data-took]').count(), 0, 'no run drawn yet');
    const chat = page.getByRole('region', { name: 'Test chat' });
    await chat.getByLabel('Message', { exact: true }).fill('something');
    await chat.getByRole('button', { name: 'Run test' }).click();
    await expect(flow.locator('.flow-step[data-step="detail"].run-succeeded')).visible();
    assert.deepEqual(await took(flow, 'greet'), ['else']);
    assert.deepEqual(await took(flow, 'detail'), ['else', 'else']);
    await saveScreenshot(page, 'workflow-editor-run-on-flow');
  });
});
