import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { EXAMPLE_WORKFLOWS, seedExamples } from '../../host/seed/seed-examples.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const EXAMPLES_DIR = new URL('../../workflows/examples/', import.meta.url);

let t: TestApp;
let seeded: Map<string, string>;
before(async () => {
  t = await createTestApp();
  seeded = (await seedExamples(t.services))!;
});
after(() => t.close());

test('every workflow in workflows/examples/ is seeded on a fresh start', async () => {
  const files = (await readdir(EXAMPLES_DIR)).filter((file) => file.endsWith('.yaml')).sort();
  assert.deepEqual(EXAMPLE_WORKFLOWS.map((example) => example.file).sort(), files);
  assert.deepEqual([...seeded.keys()].sort(), EXAMPLE_WORKFLOWS.map((example) => example.name).sort());
});

for (const { name } of EXAMPLE_WORKFLOWS) {
  test(`the seeded example "${name}" binds its memory to the seeded definitions`, async () => {
    const workflow = await t.request('GET', `/api/workflows/${seeded.get(name)}`, { as: 'viewer' });
    const definitions = await t.request('GET', '/api/memory-definitions', { as: 'viewer' });
    const idBySlug = new Map(definitions.body.items.map((definition: { id: string; slug: string }) => [definition.slug, definition.id]));
    const defs = Object.entries(parse(workflow.body.yaml).defs as Record<string, { kind: string; settings?: { definition_id?: string } }>);
    const memory = defs.filter(([, def]) => def.kind === 'memory');
    assert.ok(memory.length > 0, 'the example binds memory');
    for (const [slug, def] of memory) assert.equal(def.settings?.definition_id, idBySlug.get(slug), `defs.${slug}`);
  });

  test(`the seeded example "${name}" runs as shipped: a test run succeeds and answers`, async () => {
    for (const text of ['hello', 'my name is Ada']) {
      const run = await t.request('POST', `/api/workflows/${seeded.get(name)}/runs`, { as: 'editor', body: { input: { text } } });
      assert.equal(run.status, 200, run.text);
      assert.equal(run.body.status, 'succeeded', JSON.stringify(run.body.error ?? run.body.steps));
      assert.ok(run.body.steps.every((step: { status: string }) => step.status === 'succeeded'));
      assert.equal(run.body.messages.length, 1, `one reply to "${text}"`);
    }
  });
}
