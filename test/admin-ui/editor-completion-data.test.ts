import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import jsonata from 'jsonata';
import { expressionBindings } from '../../host/admin/src/pages/workflows/editor/jsonata-bindings.ts';
import { JSONATA_FUNCTIONS } from '../../host/workflows/expressions/jsonata-functions.ts';
import { memoryFieldBindings } from '../../host/admin/src/pages/workflows/editor/memory-field-bindings.ts';
import { readOutline } from '../../host/admin/src/pages/workflows/editor/yaml-outline.ts';

// What JSONata completion offers: the whole function library (from a data file, kept whole by
// these tests), memory fields from schemas, and the outputs that exist when a task runs.

/** The functions the installed jsonata binds in its static frame, plus the two it binds per evaluation. */
async function installedFunctionNames(): Promise<string[]> {
  const source = await readFile(createRequire(import.meta.url).resolve('jsonata'), 'utf8');
  const names = [...source.matchAll(/staticFrame\.bind\('(\w+)'/g)].map((match) => match[1]!);
  return [...names, 'now', 'millis'];
}

test('completion lists every function the installed jsonata defines, and nothing else', async () => {
  const installed = await installedFunctionNames();
  assert.ok(installed.length > 60, `found ${installed.length} functions in jsonata's source`);
  assert.deepEqual(JSONATA_FUNCTIONS.map(({ name }) => name).toSorted(), installed.toSorted());
  for (const name of installed) assert.notEqual(await jsonata(`$${name}`).evaluate(undefined), undefined, `$${name} is a function`);
});

test('each function has its signature, starting with its name, and a one-line description', () => {
  for (const { name, signature, description } of JSONATA_FUNCTIONS) {
    assert.ok(signature.startsWith(`$${name}(`) && signature.endsWith(')'), signature);
    assert.ok(description.length > 10 && !description.includes('\n'), `${name}: ${description}`);
  }
});

test('a memory schema gives its fields, nested objects and array items too, with their types and descriptions', () => {
  const fields = memoryFieldBindings({
    type: 'object',
    properties: {
      name: { type: 'string', description: 'First name' },
      address: { type: 'object', description: 'Home', properties: { city: { type: 'string', description: 'City' } } },
      tags: { type: 'array', description: 'Tags', items: { type: 'object', properties: { label: { type: ['string', 'null'] } } } },
    },
  });
  assert.deepEqual(fields, [
    { name: 'name', info: 'First name', detail: 'string' },
    { name: 'address', info: 'Home', detail: 'object', children: [{ name: 'city', info: 'City', detail: 'string' }] },
    { name: 'tags', info: 'Tags', detail: 'array of object', children: [{ name: 'label', info: '', detail: 'string | null' }] },
  ]);
});

test('$outputs offers the tasks that ran before, as validation accepts them', () => {
  const yaml = ['defs:', '  ask: { kind: task }', '  greet: { kind: task }', '  bye: { kind: task }', '  tool: { kind: task }', 'flow:', '  - do: ask', '  - do: greet', '  - { do: bye }'];
  const { root } = readOutline(yaml);
  const outputs = (task?: string) => expressionBindings(root, [], task).find(({ name }) => name === 'outputs')!.children!.map(({ name }) => name);
  assert.deepEqual(outputs('greet'), ['ask']);
  assert.deepEqual(outputs('ask'), []);
  assert.deepEqual(outputs('tool'), ['ask', 'greet', 'bye'], 'a task outside the flow (a tool) sees every step');
});
