import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { bindDefinitionPlaceholders } from '../../../host/workflows/document/bind-definition-placeholders.ts';
import { validateWorkflowYaml } from '../../../host/workflows/document/validate-workflow.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const EXAMPLES = ['greeting.yaml', 'ai-reply.yaml'];
const readExample = (file: string) => readFile(new URL(`../../../workflows/examples/${file}`, import.meta.url), 'utf8');

let t: TestApp;
let profileId: string;
before(async () => {
  t = await createTestApp();
  const profile = await t.services.memoryDefinitions.create({
    name: 'Profile',
    slug: 'profile',
    scope: 'global',
    schema: { type: 'object', properties: { name: { type: 'string', description: 'What the subscriber wants to be called' } } },
  });
  profileId = profile.id;
});
after(() => t.close());

for (const file of EXAMPLES) {
  test(`the example ${file} is valid once its placeholder is bound to the database's profile definition`, async () => {
    const text = bindDefinitionPlaceholders(await readExample(file), new Map([['profile', profileId]]));
    const { problems, document } = await validateWorkflowYaml(text, t.services.memoryDefinitions);
    assert.deepEqual(problems, []);
    assert.ok(document);
  });

  test(`the example ${file} as shipped names its placeholder, and the problem says which id to use`, async () => {
    const { problems } = await validateWorkflowYaml(await readExample(file), t.services.memoryDefinitions);
    assert.deepEqual(problems.map(({ path, code }) => ({ path, code })), [
      { path: 'defs.profile.settings.definition_id', code: 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN' },
    ]);
    assert.match(problems[0]!.message, new RegExp(`whose id is "${profileId}"`));
  });

  test(`the example ${file} saves through the admin API`, async () => {
    const yaml = bindDefinitionPlaceholders(await readExample(file), new Map([['profile', profileId]]));
    const response = await t.request('POST', '/api/workflows', { as: 'editor', body: { name: `Example ${file}`, yaml } });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.yaml, yaml);
  });
}
