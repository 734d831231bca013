import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type Router from '@koa/router';
import type { InjectOptions } from 'light-my-request';
import { ACTIONS, RESOURCES, SEEDED_ROLES, SIGNED_IN, SPECIAL_PERMISSIONS } from '../../host/auth/permissions.ts';
import { createTestApp, type TestResponse } from '../support/test-app.ts';
import { roleCredentials, unauthenticatedCredentials, type Credential } from './credentials.ts';
import { operationsOf, urlFor, type Operation } from './openapi-operations.ts';
import { expectedVerdict, loadRoleTable, verdictOf } from './verdicts.ts';

/**
 * The operations of the document that anyone may call. Short on purpose: a new
 * route without `x-permission` is either added here, knowingly, or fails this file.
 */
const PUBLIC_OPERATIONS = [
  'GET /health/live',
  'GET /health/ready',
  'POST /api/auth/login',
  'GET /api/openapi.json',
  // Public by design, each with a credential of its own: the login page (the code is in the
  // fragment), webhooks (the channel checks the platform's signature), downloads (the signed `t`),
  // the chat page (the chat socket checks its session token), the metrics (BOT_METRICS_TOKEN).
  'GET /login',
  'GET /api/webhook/{sourceRef}',
  'POST /api/webhook/{sourceRef}',
  'GET /api/webhook/{sourceRef}/{workflowId}',
  'POST /api/webhook/{sourceRef}/{workflowId}',
  'GET /api/webhook/{sourceRef}/download/{name}',
  'GET /chat/{sourceRef}',
  'GET /metrics',
];

// One app for the whole file: the document and the role table are read from it before any test
// is declared, so each operation gets a test of its own.
const t = await createTestApp();
after(() => t.close());
const document: unknown = (await t.request('GET', '/api/openapi.json')).body;
const roleTable = await loadRoleTable(t.database.db);
const operations = operationsOf(document);
// Refused credentials first: the valid ones may change data (a rescan), never the other way round.
const credentials: Credential[] = [...unauthenticatedCredentials(), ...roleCredentials(SEEDED_ROLES)];
const exercised = new Set<string>();

function call(operation: Operation, credential: Credential): Promise<TestResponse> {
  return t.request(operation.method as InjectOptions['method'], urlFor(operation), {
    ...(credential.authorization ? { authorization: credential.authorization } : {}),
    ...(operation.hasBody ? { body: {} } : {}),
  });
}

/** `METHOD /path` of every route the app's routers serve (HEAD is Koa's echo of GET). */
function routerOperations(): string[] {
  const dispatch = t.app.middleware.find((middleware) => 'routers' in middleware) as unknown as { routers: Router[] };
  return dispatch.routers.flatMap((router) => router.stack).flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
  );
}

describe('the OpenAPI document names the permission of every route', () => {
  test('every operation but the public ones declares x-permission', () => {
    const undeclared = operations.filter((operation) => !operation.permission).map((operation) => operation.key);
    assert.deepEqual(undeclared.sort(), [...PUBLIC_OPERATIONS].sort());
  });

  test('every x-permission is a <resource>:<action> of the permission vocabulary, a special permission (channel:install), or signed_in (any valid token)', () => {
    const vocabulary = new Set([...RESOURCES.flatMap((resource) => ACTIONS.map((action) => `${resource}:${action}`)), ...SPECIAL_PERMISSIONS, SIGNED_IN]);
    for (const operation of operations) {
      if (operation.permission) assert.ok(vocabulary.has(operation.permission), `${operation.key}: ${operation.permission}`);
    }
  });

  test('the seeded roles are in the role table the expectations are read from', () => {
    for (const role of SEEDED_ROLES) assert.ok(roleTable.get(role)?.size, role);
  });

  test('the router serves exactly what the document lists: every route is in the one route list', () => {
    const documented = operations.map((operation) => operation.key);
    const served = routerOperations();
    assert.deepEqual([...new Set(served)].sort(), documented.sort());
    // Each route on one router only (the webhook paths have their own).
    assert.equal(served.length, new Set(served).size);
  });
});

describe('each protected route answers each credential as the permission table says', () => {
  for (const operation of operations.filter((candidate) => candidate.permission)) {
    const permission = operation.permission!;
    test(`${operation.key} needs ${permission}`, async () => {
      exercised.add(operation.key);
      const expected: Record<string, string> = {};
      const actual: Record<string, string> = {};
      for (const credential of credentials) {
        expected[credential.name] = expectedVerdict(permission, credential, roleTable);
        actual[credential.name] = verdictOf(await call(operation, credential), permission);
      }
      assert.deepEqual(actual, expected);
    });
  }
});

describe('public routes answer alike whatever credential comes with the request', () => {
  for (const operation of operations.filter((candidate) => !candidate.permission)) {
    test(`${operation.key} is public`, async () => {
      exercised.add(operation.key);
      const statuses = new Set<number>();
      for (const credential of credentials) statuses.add((await call(operation, credential)).status);
      assert.equal(statuses.size, 1, `statuses: ${[...statuses].join(', ')}`);
      assert.ok(![403, 500].includes([...statuses][0]!), `status ${[...statuses][0]}`);
    });
  }
});

test('every operation of the document was called, none skipped', () => {
  assert.deepEqual([...exercised].sort(), operations.map((operation) => operation.key).sort());
  assert.ok(operations.length > PUBLIC_OPERATIONS.length, 'the document lists protected operations');
});
