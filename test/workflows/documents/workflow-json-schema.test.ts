import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { AGENT_WORKFLOW, VALID_WORKFLOW, variant } from './workflow-documents.ts';

const SCHEMAS_DIR = new URL('../../../schemas/', import.meta.url);
const EXAMPLES_DIR = new URL('../../../workflows/examples/', import.meta.url);
const EXAMPLES = ['greeting.yaml', 'ai-reply.yaml'];

const published = JSON.parse(await readFile(new URL('workflow.schema.json', SCHEMAS_DIR), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ allErrors: true }).compile(published);

test('the published schema has an id, a title and a description for editors', () => {
  assert.equal(published.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(typeof published.$id, 'string');
  assert.equal(typeof published.title, 'string');
  assert.equal(typeof published.description, 'string');
});

test('the published schema accepts valid workflows, as an editor would check them', () => {
  for (const yaml of [VALID_WORKFLOW, AGENT_WORKFLOW]) assert.equal(validate(parse(yaml)), true, JSON.stringify(validate.errors));
});

test('the published schema refuses what the structural check refuses', () => {
  const refused = [
    variant(VALID_WORKFLOW, ['    kind: memory\n', '    kind: memory\n    colour: blue\n']),
    variant(VALID_WORKFLOW, ['    kind: model\n', '    kind: modle\n']),
    variant(VALID_WORKFLOW, ['  profile:\n', '  my profile:\n']),
    variant(VALID_WORKFLOW, ['    action: send_text_message\n', '']),
    variant(VALID_WORKFLOW, ['flow:\n  - do: say\n  - do: reply\n', 'flow: []\n']),
  ];
  for (const yaml of refused) assert.equal(validate(parse(yaml)), false, yaml);
});

for (const file of EXAMPLES) {
  test(`the example ${file} names the published schema on its first line and matches it`, async () => {
    const exampleUrl = new URL(file, EXAMPLES_DIR);
    const text = await readFile(exampleUrl, 'utf8');
    const [, schemaPath] = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text) ?? [];
    assert.ok(schemaPath, 'the first line is a yaml-language-server $schema comment');
    assert.equal(new URL(schemaPath, exampleUrl).href, new URL('workflow.schema.json', SCHEMAS_DIR).href);
    assert.equal(validate(parse(text)), true, JSON.stringify(validate.errors));
  });
}
