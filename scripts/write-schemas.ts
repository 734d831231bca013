/** `npm run schemas`: regenerates the JSON files under `schemas/` from the code. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateSchemaFiles } from '../host/openapi/schema-files.ts';
import { workflowSchemaFiles } from '../host/workflows/document/workflow-json-schema.ts';

for (const [name, content] of Object.entries({ ...(await generateSchemaFiles()), ...workflowSchemaFiles() })) {
  await writeFile(path.join('schemas', name), content);
  console.log(`wrote schemas/${name}`);
}
