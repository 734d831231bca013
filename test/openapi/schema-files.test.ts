import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { generateSchemaFiles } from '../../host/openapi/schema-files.ts';
import { workflowSchemaFiles } from '../../host/workflows/document/workflow-json-schema.ts';

test('the committed files under schemas/ match what the code generates (run `npm run schemas` to update)', async () => {
  for (const [name, generated] of Object.entries({ ...(await generateSchemaFiles()), ...workflowSchemaFiles() })) {
    const committed = await readFile(new URL(`../../schemas/${name}`, import.meta.url), 'utf8');
    assert.equal(committed, generated, `schemas/${name} is stale`);
  }
});
