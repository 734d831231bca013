/**
 * Hostile input on the admin API (issue 6, item 3): every route of the OpenAPI document, called
 * as admin with random path ids, random query strings (huge numbers, arrays, unicode, NUL,
 * `__proto__`/`constructor` keys) and random JSON bodies, some shaped like the route's own body
 * with random values, including random YAML for workflows. Properties: never a 5xx, every 4xx a
 * JSON error body whose code is in the error table with that status, and an answer within
 * REQUEST_BOUND_MS.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ERROR_CODES } from '../../host/errors/error-codes.ts';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 3_000, maxHeapMb: 96, maxThreads: 1, maxQueue: 100, idleTimeoutMs: 10_000 };
/**
 * An admin request does a few queries, or one YAML validation with expressions compiled, or one
 * test run whose expressions are time-limited (1 s by default); 5 s on a loaded 2-core machine
 * leaves room for that and still catches a hang.
 */
const REQUEST_BOUND_MS = 5_000;

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query: string[];
  bodyKeys: string[] | undefined;
}

/**
 * Every operation of the admin API the OpenAPI document lists, except those that would change
 * the channels for the rest of the file (enable, disable, rescan): they take no input to fuzz
 * beyond the name. The document also lists what is not the admin API: the webhooks (fuzzed by
 * webhook-route.test.ts) and the pages and metrics outside `/api`, which answer in their own
 * formats.
 */
function operations(): Operation[] {
  const document = JSON.parse(readFileSync(new URL('../../schemas/openapi.json', import.meta.url), 'utf8'));
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (path.startsWith('/api/channel/') || path.startsWith('/api/webhook/') || !path.startsWith('/api/')) continue;
    for (const [method, operation] of Object.entries(methods)) {
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      list.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        query: (operation.parameters ?? []).filter((parameter: { in: string }) => parameter.in === 'query').map((parameter: { name: string }) => parameter.name),
        bodyKeys: bodySchema ? Object.keys(bodySchema.properties ?? {}) : undefined,
      });
    }
  }
  return list;
}
const OPERATIONS = operations();
const BODY_RUNS = 300;

let t: TestApp;
/** Real ids, so random calls also reach existing rows. */
const known = { definition: '', source: '', workflow: '' };
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
  const definition = await t.request('POST', '/api/memory-definitions', {
    as: 'admin',
    body: { name: 'Profile', slug: 'profile', scope: 'global', schema: { type: 'object', properties: { name: { type: 'string', description: 'First name' } } } },
  });
  assert.equal(definition.status, 201, definition.text);
  const yaml = [
    'defs:',
    '  remember:',
    '    kind: task',
    '    action: update_memory',
    '    inputs:',
    '      memory:',
    '        profile:',
    '          name: =$string($input.text)',
    '  greet:',
    '    kind: task',
    '    action: send_text_message',
    '    inputs:',
    '      text: ="Hello " & $string($input.payload)',
    'flow:',
    '  - do: remember',
    '  - do: greet',
    '',
  ].join('\n');
  const workflow = await t.request('POST', '/api/workflows', { as: 'admin', body: { name: 'Echo', yaml } });
  assert.equal(workflow.status, 201, workflow.text);
  const source = await t.request('POST', '/api/sources', { as: 'admin', body: { name: 'Sample', channel: 'sample', settings: { webhook_secret: 's' } } });
  assert.equal(source.status, 201, source.text);
  Object.assign(known, { definition: definition.body.id, source: source.body.id, workflow: workflow.body.id });
});
after(() => t.close());

/** Calls the app and checks what every admin answer must be. */
async function call(method: Operation['method'], url: string, body?: string): Promise<TestResponse> {
  const started = performance.now();
  const response = await t.request(method, url, { as: 'admin', ...(body === undefined ? {} : { body }) });
  const elapsed = performance.now() - started;
  const where = `${method} ${url.slice(0, 300)} ${body?.slice(0, 300) ?? ''}`;
  assert.ok(elapsed < REQUEST_BOUND_MS, `${where}: answered after ${Math.round(elapsed)} ms`);
  assert.ok(response.status < 500, `${where}: ${response.status} ${response.text.slice(0, 500)}`);
  if (response.status >= 400) {
    const code: string = response.body?.error?.code;
    assert.ok(code in ERROR_CODES, `${where}: no known code in ${response.text.slice(0, 300)}`);
    assert.equal(ERROR_CODES[code as keyof typeof ERROR_CODES].status, response.status, `${where}: ${code}`);
    assert.equal(typeof response.body.error.message, 'string');
  }
  return response;
}

/** Characters that break things: NUL, lone surrogates, LIKE wildcards, quotes, emoji, controls. */
const nastyChar = fc.constantFrom('\u0000', '\uD800', '\uDFFF', '%', '_', '\\', "'", '"', '😀', '\u202E', '\n', 'a', 'é');
const hostileString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: nastyChar, maxLength: 8 }),
  fc.constantFrom('', '\u0000', 'a\u0000b', '\uD800', '__proto__', 'constructor', 'prototype', '😀', '%', '_', '\\', "'; DROP TABLE sources; --", 'x'.repeat(300)),
);
const hugeNumber = fc.constantFrom('1e400', '99999999999999999999', '-1', '0', 'NaN', 'Infinity', '-0', '0x10', ' 5', '1.5', '9007199254740993', '2147483648', '');
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.double(),
    fc.integer(),
    fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Random YAML: well-formed documents, near-workflows, syntax errors, alias bombs, deep nesting. */
const randomYaml = fc.oneof(
  fc.string({ maxLength: 200 }),
  anyJson.map((value) => JSON.stringify(value) ?? ''),
  fc.constantFrom(
    'defs: *unknown',
    '!!js/function "function () {}"',
    'a: &a [1, 2]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
    'defs:\n  t:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: =$string($)\nflow:\n  - do: t',
    'defs:\n  t:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: "=(function($f){$f($f)})(function($f){$f($f)})"\nflow:\n  - do: t',
    'defs:\n  m:\n    kind: memory\n    settings:\n      definition_id: profile\nflow: []',
    '? [a, b]\n: c',
    '--- a\n--- b',
    '%YAML 9.9\n---\na: 1',
  ),
  fc.integer({ min: 100, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 100, max: 5_000 }).map((depth) => Array.from({ length: depth }, (_, level) => `${' '.repeat(level)}a:`).join('\n')),
);

/** Values of the right type for each body field, with hostile text, so bodies get past the route schema. */
const text = fc.oneof({ arbitrary: fc.string({ minLength: 1, maxLength: 30 }).filter((value) => value.trim() !== ''), weight: 3 }, { arbitrary: hostileString, weight: 1 });
const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  name: text,
  slug: fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,70}$/), hostileString),
  scope: fc.constantFrom('global', 'workflow', 'thread', 'run'),
  ttlSeconds: fc.oneof(fc.constant(null), fc.integer(), fc.constantFrom(2 ** 31, 1e308, 0.5, -1)),
  schema: fc.tuple(text, text, anyJson).map(([property, description, extra]) => ({
    type: 'object',
    properties: { [property]: { type: 'string', description } },
    ...(typeof extra === 'object' && extra !== null ? { extra } : {}),
  })),
  channel: fc.constantFrom('sample', 'web', 'nope'),
  settings: fc.dictionary(fc.constantFrom('webhook_secret', 'api_url', 'api_key', 'verify_token', 'tenant_id', '__proto__'), fc.oneof(text, anyJson), { maxKeys: 3 }),
  active: fc.boolean(),
  defaultWorkflowId: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.uuid().map(String), weight: 1 }, { arbitrary: hostileString, weight: 1 }),
  yaml: randomYaml,
  input: fc.record({ text, payload: anyJson, message_type: text }, { requiredKeys: [] }),
  ownerId: text,
  version: fc.oneof({ arbitrary: fc.constant(1), weight: 3 }, { arbitrary: fc.integer(), weight: 1 }),
  code: text,
};

/** A body shaped like the route's own (its keys, random values), or anything at all. */
function bodyFor(operation: Operation): fc.Arbitrary<string | undefined> {
  if (!operation.bodyKeys) return fc.constant(undefined);
  const valueFor = (key: string) => (key in PLAUSIBLE ? fc.oneof({ arbitrary: PLAUSIBLE[key]!, weight: 8 }, { arbitrary: anyJson, weight: 1 }) : anyJson);
  const shaped = fc
    .tuple(
      fc.boolean().chain((complete) => fc.record(Object.fromEntries(operation.bodyKeys!.map((key) => [key, valueFor(key)])), complete ? {} : { requiredKeys: [] })),
      // Extra keys make a strict body invalid, so only now and then.
      fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra'), anyJson, { minKeys: 1, maxKeys: 2 }), weight: 1 }),
    )
    .map(([fields, extras]) => {
      const text = JSON.stringify(fields);
      const extraText = Object.entries(extras).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',');
      return extraText === '' ? text : text === '{}' ? `{${extraText}}` : `${text.slice(0, -1)},${extraText}}`;
    });
  return fc.oneof(
    { arbitrary: shaped, weight: 6 },
    { arbitrary: anyJson.map((value) => JSON.stringify(value)), weight: 2 },
    { arbitrary: fc.string({ maxLength: 50 }), weight: 1 },
    { arbitrary: fc.integer({ min: 100, max: 12_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`), weight: 1 },
  );
}

const encode = (text: string) => encodeURIComponent(text.toWellFormed());
const queryValue = fc.oneof(
  hostileString.map(encode),
  hugeNumber.map(encode),
  fc.constantFrom('%', '%zz', '%00', '%C0%80', '%ED%A0%80', 'name', '-name', 'createdAt', '-createdAt', 'updatedAt', 'global', 'failed', '00000000-0000-0000-0000-000000000000'),
);
function queryFor(operation: Operation): fc.Arbitrary<string> {
  const names = fc.oneof(
    { arbitrary: fc.constantFrom(...(operation.query.length > 0 ? operation.query : ['limit'])), weight: 4 },
    { arbitrary: fc.constantFrom('__proto__', 'constructor', '__proto__[limit]', 'limit[]', 'sort[0]', 'toString'), weight: 1 },
    { arbitrary: hostileString.map(encode), weight: 1 },
  );
  return fc.array(fc.tuple(names, queryValue), { maxLength: 6 }).map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));
}

const pathId = fc.oneof(
  fc.constantFrom(() => known.definition, () => known.source, () => known.workflow).map((id) => id()),
  fc.uuid().map(String),
  hostileString.map(encode),
  fc.constantFrom('%zz', '%00', '..', '%2F', '0', '-1', '99999999999999999999'),
);

function requestFor(operation: Operation): fc.Arbitrary<{ url: string; body: string | undefined }> {
  const query = operation.query.length > 0 ? queryFor(operation) : fc.oneof({ arbitrary: fc.constant(''), weight: 9 }, { arbitrary: queryFor(operation), weight: 1 });
  return fc.record({ id: pathId, name: pathId, query, body: bodyFor(operation) }).map(({ id, name, query, body }) => {
    const path = operation.path.replace('{id}', id).replace('{name}', name);
    return { url: query === '' ? path : `${path}?${query}`, body };
  });
}

describe('the admin API under hostile input, as admin', () => {
  test('the OpenAPI document lists the routes this file fuzzes', () => {
    for (const path of ['/api/memory-definitions', '/api/memory-records', '/api/sources', '/api/workflows', '/api/workflows/validate', '/api/subscribers', '/api/inbound-events', '/api/runs']) {
      assert.ok(OPERATIONS.some((operation) => operation.path === path), path);
    }
  });

  const listRoutes = OPERATIONS.filter((operation) => operation.method === 'GET' && operation.query.length > 0);
  test(`random query strings on the ${listRoutes.length} routes that take a query: never a 5xx, a coded 4xx`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...listRoutes).chain((operation) => requestFor(operation).map((request) => ({ operation, request }))), async ({ operation, request }) => {
        const response = await call(operation.method, request.url);
        if (response.status === 200 && operation.path.endsWith('s')) assert.ok(Array.isArray(response.body.items), request.url);
      }),
      { numRuns: 200 },
    );
  });

  const bodyRoutes = OPERATIONS.filter((operation) => operation.bodyKeys !== undefined);
  test(`random JSON bodies on the ${bodyRoutes.length} routes that take one: never a 5xx, a coded 4xx`, async (context) => {
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyRoutes).chain((operation) => requestFor(operation).map((request) => ({ operation, request }))), async ({ operation, request }) => {
        const response = await call(operation.method, request.url, request.body);
        const key = `${operation.method} ${operation.path} ${response.status} ${response.body?.error?.code ?? ''}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }),
      { numRuns: BODY_RUNS },
    );
    const succeeded = [...statuses].filter(([key]) => / 2\d\d $/.test(key)).reduce((sum, [, count]) => sum + count, 0);
    const codes = new Set([...statuses.keys()].map((key) => key.split(' ')[3]).filter(Boolean));
    context.diagnostic(`${succeeded} of ${BODY_RUNS} bodies succeeded; refusals: ${[...codes].sort().join(', ')}`);
  });

  test('random YAML to POST /api/workflows/validate: 200 with problems or a coded 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(randomYaml, async (yaml) => {
        const response = await call('POST', '/api/workflows/validate', JSON.stringify({ yaml }));
        if (response.status === 200) assert.equal(typeof response.body.valid, 'boolean');
      }),
      { numRuns: 60 },
    );
  });

  test('random inputs to a test run of a real workflow: never a 5xx', async () => {
    const input = fc.record({ text: anyJson, payload: anyJson, message_type: anyJson, extra: anyJson }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(input, fc.option(anyJson, { nil: undefined }), async (sample, ownerId) => {
        await call('POST', `/api/workflows/${known.workflow}/runs`, JSON.stringify({ input: sample, ownerId }));
      }),
      { numRuns: 40 },
    );
  });

  test('every route, any method, random path ids: never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...OPERATIONS), fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE' as const), pathId, async (operation, method, id) => {
        await call(method, operation.path.replace('{id}', id).replace('{name}', id), method === 'GET' || method === 'DELETE' ? undefined : '{}');
      }),
      { numRuns: 100 },
    );
    // Still serving (the seeded rows may have been deleted by now).
    assert.equal((await call('GET', '/api/memory-definitions')).status, 200);
  });
});
