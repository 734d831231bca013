import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { setEditorText } from './code-editor.ts';
import { expect } from './expect-page.ts';
import { GREETING_YAML, profileGreetingYaml } from './workflow-fixtures.ts';

// One real `npm start` and one browser page; the tests run in order on the same host.
const skip = browserSkipReason();

// The second step fails at run time: `$number` cannot cast that text (an expression error).
const FAILING_YAML = `description: Greets, then fails on a bad number
defs:
  hello:
    kind: task
    action: send_text_message
    inputs:
      text: '="Hello " & $input.text'
  count:
    kind: task
    action: send_text_message
    inputs:
      text: '="You are number " & $string($number("not a number"))'
flow:
  - do: hello
  - do: count
`;

// The same task twice: its first run finds no output of its own and says "first"; the second
// finds one and fails on the bad number.
const TWICE_YAML = `description: Runs one task twice; the second run fails
defs:
  say:
    kind: task
    action: send_text_message
    inputs:
      text: '=$exists($outputs.say) ? $string($number("not a number")) : "first"'
flow:
  - do: say
  - do: say
`;

// Conditions in several inputs and steps, and an agent with tools: every kind of side branch.
const BRANCHES_YAML = `description: Branches everywhere
defs:
  model: { kind: model, settings: { provider: offline, model_id: echo } }
  greet:
    kind: task
    action: send_text_message
    inputs:
      text: '=$exists($context.memory.profile.name) ? "Hello " & $context.memory.profile.name & ", welcome back to the shop!" : "Hello! What is your name, if I may ask?"'
      quick_replies: '=$input.text = "help" ? [{ "title": "Orders", "payload": "orders" }] : []'
  lookup_order_status_by_number: { kind: task, action: ai_generate_text, inputs: { prompt: '=$input.text' } }
  helper:
    kind: task
    action: ai_agent
    inputs:
      prompt: '=$length($input.text) > 200 ? $substring($input.text, 0, 200) & " (cut)" : $input.text'
      system: '=$input.message_type = "quickReply" ? "Answer the chosen quick reply" : "Answer briefly"'
      tools: [lookup_order_status_by_number, greet]
bindings: { model: model }
flow:
  - do: greet
  - do: helper
  - do: greet
`;

describe('the flow beside the workflow YAML', { skip }, () => {
  let admin: AdminHost;
  const ids = new Map<string, string>();
  before(async () => {
    admin = await startAdminHost();
    const workflows: [string, string][] = [
      ['Greeting', await profileGreetingYaml(admin)],
      ['Counting', FAILING_YAML],
      ['Twice', TWICE_YAML],
    ];
    for (const [name, yaml] of workflows) {
      const created = await admin.api<{ id: string }>('POST', '/api/workflows', { name, yaml });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ids.set(name, created.body.id);
    }
    await admin.page.goto(await admin.loginLink());
    await expect(admin.page.getByText('admin (admin)')).visible();
  });
  after(() => admin?.close());

  const flow = () => admin.page.getByTestId('flow-view');
  const stepNames = () => flow().locator('.flow-step').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-step')));
  const failedPositions = () => flow().locator('.flow-step.failed').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-position')));

  test("shows the Greeting workflow's steps with their actions, conditions and the memory they touch", async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/${ids.get('Greeting')}`);
    await expect(page.getByRole('heading', { name: 'Greeting (v1)' })).visible();
    await expect(flow().locator('.flow-step[data-step="remember_name"]')).contains('update_memory');
    await expect(flow().locator('.flow-step[data-step="greet"]')).contains('send_text_message');
    assert.deepEqual(await stepNames(), ['remember_name', 'greet']);
    await expect(flow().locator('.flow-step[data-step="remember_name"] [data-memory="profile"] text')).text('profile · reads, writes');
    await expect(flow().locator('.flow-step[data-step="greet"] [data-memory="profile"] text')).text('profile · reads');
    await expect(flow().locator('.flow-condition[data-input="text"] .flow-condition-test')).contains('text: if $exists($context.memory.profile');
    assert.equal(await flow().locator('.flow-condition').count(), 2);
    assert.deepEqual(await flow().locator('.flow-condition .flow-edge-label').allTextContents(), ['then', 'else', 'then', 'else']);
    const summary = await flow().getByRole('img').getAttribute('aria-label');
    assert.match(summary ?? '', /^Flow of 2 steps\. Step 1, remember_name: runs update_memory; memory profile \(reads, writes\)/);
    assert.match(summary ?? '', /text depends on \$exists\(\$context\.memory\.profile\.name\)\.$/);
    assert.equal(await flow().locator('.failed').count(), 0, 'nothing has failed yet');
    await flow().scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'workflow-flow-greeting');
  });

  test('redraws as the YAML changes, and keeps the last flow while the text does not parse', async () => {
    const { page } = admin;
    const swapped = GREETING_YAML.replace('  - do: remember_name\n  - do: greet', '  - do: greet\n  - do: remember_name\n  - do: farewell');
    await setEditorText(page, swapped);
    await expect(flow().locator('.flow-step').first()).contains('1. greet');
    assert.deepEqual(await stepNames(), ['greet', 'remember_name', 'farewell']);
    await expect(flow().locator('.flow-step[data-step="farewell"]')).contains('no task of that name');
    await saveScreenshot(page, 'workflow-flow-edited');

    await setEditorText(page, `${swapped}  - do: [`);
    await expect(flow().locator('.flow-error')).contains('Showing the flow as last read');
    assert.deepEqual(await stepNames(), ['greet', 'remember_name', 'farewell']);
  });

  test('marks the step that failed after a failing test run', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/${ids.get('Counting')}`);
    await expect(page.getByRole('heading', { name: 'Counting (v1)' })).visible();
    await expect(flow().locator('.flow-step[data-step="count"]')).visible();
    assert.equal(await flow().locator('.failed').count(), 0);
    await page.getByRole('button', { name: 'Run test' }).click();
    await expect(page.getByRole('list', { name: 'Steps' }).locator('li[data-task="count"]')).contains('failed');
    await expect(flow().locator('.flow-step.failed')).contains('failed');
    assert.deepEqual(await failedPositions(), ['1']);
    assert.match((await flow().getByRole('img').getAttribute('aria-label')) ?? '', /Step 2, count \(failed\): runs send_text_message/);
    await flow().scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'workflow-flow-failed-step');
  });

  test('marks only the step at the failing position when the same task runs twice', async () => {
    const { page } = admin;
    await page.goto(`${admin.host.url}/workflows/${ids.get('Twice')}`);
    await expect(page.getByRole('heading', { name: 'Twice (v1)' })).visible();
    await expect(flow().locator('.flow-step[data-position="1"]')).visible();
    await page.getByRole('button', { name: 'Run test' }).click();
    await expect(page.locator('.test-run-result[data-status="failed"]')).visible();
    await expect(flow().locator('.flow-step.failed')).contains('failed');
    assert.deepEqual(await failedPositions(), ['1'], 'the second step failed, not the first run of the same task');
    const summary = (await flow().getByRole('img').getAttribute('aria-label')) ?? '';
    assert.match(summary, /Step 1, say \(succeeded\): runs send_text_message/);
    assert.match(summary, /Step 2, say \(failed\): runs send_text_message/);
    await flow().scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'workflow-flow-failed-repeated-task');
  });

  test('fits the editor column at a 1280 px window with several conditions and tools, its text at 0.8 scale or more', async () => {
    const { page } = admin;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${admin.host.url}/workflows/new`);
    await setEditorText(page, BRANCHES_YAML);
    await expect(flow().locator('.flow-step[data-position="2"]')).visible();
    assert.equal(await flow().locator('.flow-condition').count(), 6);
    assert.equal(await flow().locator('.flow-tool').count(), 2);
    const fit = await flow().evaluate((figure) => {
      const svg = figure.querySelector('svg')!;
      const viewBoxWidth = svg.viewBox.baseVal.width;
      const texts = [...svg.querySelectorAll('text')].map((text) => text.getBBox());
      return {
        scrollWidth: figure.scrollWidth,
        clientWidth: figure.clientWidth,
        scale: svg.getBoundingClientRect().width / viewBoxWidth,
        overflowingTexts: texts.filter((box) => box.x < 0 || box.x + box.width > viewBoxWidth).length,
      };
    });
    assert.ok(fit.scrollWidth <= fit.clientWidth, `the flow scrolls sideways: ${fit.scrollWidth} > ${fit.clientWidth}`);
    assert.ok(fit.scale >= 0.8, `drawn at ${fit.scale.toFixed(2)}, under the smallest legible scale`);
    assert.equal(fit.overflowingTexts, 0, 'every label is cut to fit inside the drawing');
    await flow().scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'workflow-flow-branches-fit');
  });
});
