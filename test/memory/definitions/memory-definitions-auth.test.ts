import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createDefinition, definitionBody, DEFINITIONS_URL } from './definition-requests.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

type Call = (t: TestApp, role: string) => Promise<{ status: number; body: { error?: { code: string } } }>;

const CALLS: Record<string, Call> = {
  list: (t, role) => t.request('GET', DEFINITIONS_URL, { as: role }),
  'slug check': (t, role) => t.request('GET', `${DEFINITIONS_URL}/slug-check?name=x`, { as: role }),
  read: async (t, role) => t.request('GET', `${DEFINITIONS_URL}/${(await createDefinition(t, { name: `Read ${role}` })).id}`, { as: role }),
  create: (t, role) => t.request('POST', DEFINITIONS_URL, { as: role, body: definitionBody({ name: `Create ${role}` }) }),
  update: async (t, role) =>
    t.request('PATCH', `${DEFINITIONS_URL}/${(await createDefinition(t, { name: `Update ${role}` })).id}`, { as: role, body: { ttlSeconds: 5 } }),
  delete: async (t, role) => t.request('DELETE', `${DEFINITIONS_URL}/${(await createDefinition(t, { name: `Delete ${role}` })).id}`, { as: role }),
};

/** The status each role gets per operation: admin all, editor all but delete, viewer read only. */
const EXPECTED: Record<string, Record<keyof typeof CALLS, number>> = {
  admin: { list: 200, 'slug check': 200, read: 200, create: 201, update: 200, delete: 204 },
  editor: { list: 200, 'slug check': 200, read: 200, create: 201, update: 200, delete: 403 },
  viewer: { list: 200, 'slug check': 200, read: 200, create: 403, update: 403, delete: 403 },
  stranger: { list: 403, 'slug check': 403, read: 403, create: 403, update: 403, delete: 403 },
};

for (const [role, statuses] of Object.entries(EXPECTED)) {
  for (const [operation, status] of Object.entries(statuses)) {
    test(`${role} gets ${status} on ${operation}`, async () => {
      const response = await CALLS[operation]!(t, role);
      assert.equal(response.status, status);
      if (status === 403) assert.equal(response.body.error?.code, 'BOT_ERR_AUTH_FORBIDDEN');
    });
  }
}

const UNAUTHENTICATED: [what: string, authorization: string | undefined, code: string][] = [
  ['no token', undefined, 'BOT_ERR_AUTH_TOKEN_MISSING'],
  ['a malformed token', 'Bearer not-a-jwt', 'BOT_ERR_AUTH_TOKEN_INVALID'],
  ['a token signed with another secret', `Bearer ${signedElsewhere()}`, 'BOT_ERR_AUTH_TOKEN_INVALID'],
];

for (const [what, authorization, code] of UNAUTHENTICATED) {
  for (const [method, url] of [
    ['GET', DEFINITIONS_URL],
    ['POST', DEFINITIONS_URL],
    ['DELETE', `${DEFINITIONS_URL}/00000000-0000-4000-8000-000000000000`],
  ] as const) {
    test(`${method} ${url} with ${what} answers 401 ${code}`, async () => {
      const body = method === 'POST' ? definitionBody() : undefined;
      const response = await t.request(method, url, { authorization, body });
      assert.equal(response.status, 401);
      assert.equal(response.body.error.code, code);
    });
  }
}

/** A well-formed HS256 token whose signature does not match the host's secret. */
function signedElsewhere(): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'mallory', role: 'admin' })}.${Buffer.from('forged').toString('base64url')}`;
}
