/**
 * Memory schemas and values generated at random, against ajv's verdict. For a
 * random definition schema within the rules (README "Memory
 * definitions"), the API must create the definition; then random values, some built to match and
 * some not, are written through the record store and through `update_memory` in a test run. The
 * host must accept exactly the values a fresh ajv (the options of the host's
 * MemoryValueValidator) accepts, less those PostgreSQL cannot store (a NUL or an unpaired
 * surrogate: refused with the same code), and a refused write must store nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import fc from 'fast-check';
import { AppError } from '../../host/errors/app-error.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const addFormats = formatsModule.default;
type Schema = Record<string, unknown>;

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

/** The oracle: a fresh ajv with the host validator's options, on the schema made strict at every object. */
function ajvVerdict(schema: Schema, value: unknown): boolean {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.validate(strict(schema), value);
}

function strict(schema: Schema): Schema {
  const copy: Schema = { ...schema };
  if (isObject(copy.properties)) {
    copy.properties = Object.fromEntries(Object.entries(copy.properties).map(([name, property]) => [name, strict(property as Schema)]));
    copy.additionalProperties = false;
  }
  if (isObject(copy.items)) copy.items = strict(copy.items as Schema);
  return copy;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** False when a string (key or value) holds a NUL or an unpaired surrogate, which jsonb refuses. */
const storable = (value: unknown): boolean => {
  if (typeof value === 'string') return value.isWellFormed() && !value.includes('\u0000');
  if (Array.isArray(value)) return value.every(storable);
  return !isObject(value) || Object.entries(value).every(([key, item]) => storable(key) && storable(item));
};

/** Property names, including the ones that trip up plain objects. */
const propertyName = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), weight: 6 },
  { arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', '', 'a b', 'ü', '$ref', 'type', 'properties', '0'), weight: 1 },
);

/** A schema for one property, of any JSON Schema type the rules allow, nested up to `depth`. */
function propertySchema(depth: number): fc.Arbitrary<Schema> {
  const string = fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.integer({ min: 0, max: 3 }),
      maxLength: fc.integer({ min: 3, max: 12 }),
      pattern: fc.constantFrom('^[a-z]*$', '\\d', '^.{0,5}$'),
      format: fc.constantFrom('email', 'date', 'uri', 'uuid'),
      enum: fc.uniqueArray(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ['type'] },
  );
  const number = fc.record(
    {
      type: fc.constantFrom('number', 'integer'),
      minimum: fc.integer({ min: -100, max: 0 }),
      maximum: fc.integer({ min: 0, max: 100 }),
      multipleOf: fc.constantFrom(1, 2, 5),
    },
    { requiredKeys: ['type'] },
  );
  const scalar = fc.oneof(
    string,
    number,
    fc.constant({ type: 'boolean' }),
    fc.constant({ type: 'null' }),
    fc.constantFrom(['string', 'null'], ['number', 'string'], ['integer', 'boolean', 'null']).map((type) => ({ type })),
  );
  if (depth <= 0) return scalar;
  const array = fc.record(
    { type: fc.constant('array'), items: propertySchema(depth - 1), minItems: fc.integer({ min: 0, max: 2 }), maxItems: fc.integer({ min: 2, max: 5 }), uniqueItems: fc.boolean() },
    { requiredKeys: ['type', 'items'] },
  );
  return fc.oneof({ arbitrary: scalar, weight: 3 }, { arbitrary: array, weight: 1 }, { arbitrary: objectSchema(depth - 1, false), weight: 1 });
}

/** An object from entries, each an own property (so `__proto__` is a name, not the prototype). */
function ownEntries<T>(entries: [string, T][]): Record<string, T> {
  const object: Record<string, T> = {};
  for (const [name, value] of entries) Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/** An object schema with named properties, a `required` subset and (at the top) descriptions and a title. */
function objectSchema(depth: number, top: boolean): fc.Arbitrary<Schema> {
  const entries = fc.uniqueArray(fc.tuple(propertyName, propertySchema(depth)), { minLength: 1, maxLength: 4, selector: ([name]) => name });
  return fc
    .tuple(entries, fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), fc.func(fc.boolean()))
    .map(([list, title, isRequired]) => {
      // Top-level properties are shown to AI actions, so the rules want a description on each.
      const properties = ownEntries(list.map(([name, schema]) => [name, top ? { ...schema, description: `What ${name} holds` } : schema]));
      const required = list.map(([name]) => name).filter((name) => isRequired(name));
      return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(top && title !== undefined ? { title } : {}) };
    });
}

const hostileString = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 4 },
  { arbitrary: fc.constantFrom('a@b.co', '2024-02-29', '2023-02-29', 'https://x.test/a', '1b4e28ba-2fa1-11d2-883f-0016d3cca427', 'abc', '12345', ''), weight: 2 },
  { arbitrary: fc.constantFrom('\u0000', 'a\u0000', '\uD800', 'x\uDC00y', '😀'), weight: 1 },
);
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer({ min: -200, max: 200 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(propertyName, hostileString), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Values built to match `schema` (they may still miss: formats, patterns, bounds are not all honoured). */
function valueFor(schema: Schema): fc.Arbitrary<unknown> {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return fc.oneof(...types.map((type) => valueOfType(type, schema)));
}

const FORMAT_EXAMPLES: Record<string, string> = { email: 'ada@example.test', date: '2024-02-29', uri: 'https://x.test/a', uuid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' };

/** Strings that often meet the keywords of `schema`, and sometimes hold what jsonb refuses. */
function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (typeof schema.format === 'string') return fc.oneof(fc.constant(FORMAT_EXAMPLES[schema.format]!), hostileString);
  const plain = fc.stringMatching(/^[a-z]{3,5}$/);
  if (schema.pattern !== undefined) return fc.oneof(plain, fc.constantFrom('12345', '7'), hostileString);
  return fc.oneof(plain, fc.constantFrom('abc\u0000', '\uD800xy', 'x\uDC00y', 'abc😀'), hostileString);
}

/** Numbers within the bounds, on the multiple (0 always is), or anything. */
function numberFor(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const step = (schema.multipleOf as number | undefined) ?? 1;
  const bounded = fc.integer({ min: (schema.minimum as number | undefined) ?? -100, max: (schema.maximum as number | undefined) ?? 100 }).map((n) => Math.trunc(n / step) * step || 0);
  return fc.oneof({ arbitrary: bounded, weight: 4 }, { arbitrary: integer ? fc.integer() : fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 });
}

function valueOfType(type: string, schema: Schema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'number':
    case 'integer':
      return numberFor(schema, type === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const constraints = { minLength: (schema.minItems as number | undefined) ?? 0, maxLength: (schema.maxItems as number | undefined) ?? 5 };
      const items = valueFor(schema.items as Schema);
      // Unique items may be too few to reach minItems (one enum value, null): no minimum then, or
      // fast-check would search for ever.
      return schema.uniqueItems ? fc.uniqueArray(items, { maxLength: constraints.maxLength, selector: (item) => JSON.stringify(item) }) : fc.array(items, constraints);
    }
    default: {
      const properties = schema.properties as Record<string, Schema>;
      const shape = Object.entries(properties).map(([name, property]) => [name, valueFor(property)] as const);
      const required = new Set((schema.required as string[] | undefined) ?? []);
      // Each property present when required, else half the time; built as own properties.
      return fc
        .tuple(...shape.map(([name, arbitrary]) => fc.tuple(fc.constant(name), arbitrary, required.has(name) ? fc.constant(true) : fc.boolean())))
        .map((entries) => ownEntries(entries.filter(([, , present]) => present).map(([name, value]) => [name, value])));
    }
  }
}

/** Values for a definition: mostly near-misses of a matching value, some anything at all. */
function valuesFor(schema: Schema): fc.Arbitrary<unknown[]> {
  const matching = valueFor(schema) as fc.Arbitrary<Record<string, unknown>>;
  const mutated = fc.tuple(matching, fc.constantFrom('extra', 'drop', 'retype'), propertyName, anyJson).map(([value, how, name, junk]) => {
    const copy: Record<string, unknown> = { ...value };
    const keys = Object.keys(copy);
    if (how === 'extra') Object.defineProperty(copy, name, { value: junk, enumerable: true, writable: true, configurable: true });
    else if (how === 'drop' && keys.length > 0) delete copy[keys[0]!];
    else if (keys.length > 0) copy[keys[0]!] = junk;
    return copy;
  });
  return fc.array(fc.oneof({ arbitrary: matching, weight: 4 }, { arbitrary: mutated, weight: 3 }, { arbitrary: anyJson, weight: 1 }), { minLength: 1, maxLength: 8 });
}

let definitions = 0;
/** Creates a definition through the API; a schema within the rules must be accepted. */
async function createDefinition(schema: Schema, scope = 'global'): Promise<{ id: string; slug: string }> {
  definitions += 1;
  const response = await t.request('POST', '/api/memory-definitions', {
    as: 'admin',
    body: { name: `Random ${definitions}`, slug: `random_${definitions}`, scope, schema },
  });
  assert.equal(response.status, 201, `${JSON.stringify(schema)}: ${response.text}`);
  return response.body;
}

async function storedRecord(definitionId: string, ownerId: string): Promise<{ value: unknown; updated_at: Date } | undefined> {
  return t.database.db('memory_records').where({ definition_id: definitionId, owner_id: ownerId }).first('value', 'updated_at');
}

/** JSON's view of a value: what jsonb gives back (no -0, no undefined). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('memory values against ajv', () => {
  test('the record store accepts exactly what ajv accepts (and PostgreSQL can store); a refused write stores nothing', async (context) => {
    const seen = { accepted: 0, refused: 0, unstorable: 0 };
    const target = { ownerId: 'owner-1', workflowId: 'wf-1', threadId: 'thread-1', runId: 'run-1' };
    const scopes = fc.constantFrom('global', 'workflow', 'thread', 'run');
    await fc.assert(
      fc.asyncProperty(objectSchema(2, true).chain((schema) => fc.tuple(fc.constant(schema), scopes, valuesFor(schema))), async ([schema, scope, values]) => {
        const definition = await createDefinition(schema, scope);
        for (const value of values) {
          const expected = ajvVerdict(schema, value) && storable(value);
          seen[expected ? 'accepted' : ajvVerdict(schema, value) ? 'unstorable' : 'refused'] += 1;
          const before = await storedRecord(definition.id, target.ownerId);
          t.clock.advance(1_000);
          const outcome = await t.services.memoryRecords.write(target, { [definition.slug]: value }).then(
            () => 'accepted',
            (error: unknown) => error,
          );
          const context = `${JSON.stringify(value)} against ${JSON.stringify(schema)}`;
          if (expected) {
            assert.equal(outcome, 'accepted', `${context}: ${String(outcome)}`);
            assert.deepEqual((await storedRecord(definition.id, target.ownerId))?.value, asJson(value), context);
          } else {
            assert.ok(outcome instanceof AppError, `${context}: accepted or not an AppError: ${String(outcome)}`);
            assert.equal(outcome.code, 'BOT_ERR_MEMORY_VALUE_INVALID', context);
            assert.deepEqual(await storedRecord(definition.id, target.ownerId), before, `${context}: a refused write changed the record`);
          }
        }
      }),
      { numRuns: 60 },
    );
    context.diagnostic(`values accepted ${seen.accepted}, refused by ajv ${seen.refused}, valid but unstorable ${seen.unstorable}`);
  });

  test('update_memory in a test run accepts exactly what ajv accepts; a refused run writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(objectSchema(1, true).chain((schema) => fc.tuple(fc.constant(schema), valuesFor(schema))), async ([schema, values]) => {
        const definition = await createDefinition(schema);
        const yaml = `defs:\n  write:\n    kind: task\n    action: update_memory\n    inputs:\n      memory:\n        ${definition.slug}: =$input.payload\nflow:\n  - do: write\n`;
        const workflow = await t.request('POST', '/api/workflows', { as: 'admin', body: { name: `Writer ${definitions}`, yaml } });
        assert.equal(workflow.status, 201, workflow.text);
        // Objects only: the value is `$input.payload` through JSONata, which keeps an object as it is.
        // Judged as sent: JSON drops what is not an own key (fast-check may build an object whose
        // `__proto__` is its prototype, not a key), and ajv must see what the host sees.
        for (const value of values.filter(isObject).map(asJson)) {
          const expected = ajvVerdict(schema, value) && storable(value);
          const before = await storedRecord(definition.id, 'test:fuzz');
          t.clock.advance(1_000);
          const response = await t.request('POST', `/api/workflows/${workflow.body.id}/runs`, { as: 'admin', body: { input: { payload: value }, ownerId: 'fuzz' } });
          const context = `${JSON.stringify(value)} against ${JSON.stringify(schema)}: ${response.text.slice(0, 400)}`;
          assert.ok(response.status < 500, context);
          if (expected) {
            assert.equal(response.body.status, 'succeeded', context);
            assert.deepEqual((await storedRecord(definition.id, 'test:fuzz'))?.value, asJson(value), context);
          } else {
            const refusedAtTheDoor = response.status === 422 && !storable(value);
            if (!refusedAtTheDoor) {
              assert.equal(response.body.status, 'failed', context);
              assert.equal(response.body.error?.code, 'BOT_ERR_MEMORY_VALUE_INVALID', context);
            }
            assert.deepEqual(await storedRecord(definition.id, 'test:fuzz'), before, `${context}: a refused write changed the record`);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
