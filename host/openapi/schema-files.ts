import pino from 'pino';
import { z } from 'zod';
import { createKnex } from '../db/create-knex.ts';
import { createMemoryDefinitionBody } from '../memory/definitions/memory-definitions.routes.ts';
import { buildRoutes } from '../routes.ts';
import { createServices } from '../services.ts';
import { HOST_VERSION } from '../version.ts';
import { buildOpenApi } from './build-openapi.ts';

/**
 * The generated files under `schemas/`, by file name. Built from the code, never edited by hand:
 * `npm run schemas` writes them and a test fails when the committed copies drift.
 */
export async function generateSchemaFiles(): Promise<Record<string, string>> {
  // Building routes needs services, but nothing here queries: the pool never connects.
  const db = createKnex({ url: 'postgres://schema-generation.invalid/none' });
  try {
    const services = createServices({ db, logger: pino({ level: 'silent' }) });
    const routes = buildRoutes(services, { authSecret: 'schema-generation-only', webhookMaxBodyBytes: 1024 * 1024 });
    return {
      'openapi.json': toFile(buildOpenApi(routes, HOST_VERSION)),
      'memory-definition.schema.json': toFile({
        title: 'Memory definition',
        description: 'What POST /api/memory-definitions accepts. The server also applies the schema rules in docs/admin.md.',
        ...z.toJSONSchema(createMemoryDefinitionBody, { io: 'input', unrepresentable: 'any' }),
      }),
    };
  } finally {
    await db.destroy();
  }
}

function toFile(json: unknown): string {
  return `${JSON.stringify(json, null, 2)}\n`;
}
