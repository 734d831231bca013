import { Ajv, type Options } from 'ajv';
import formatsModule from 'ajv-formats';
import { AppError } from '../../errors/app-error.ts';
import type { MemorySchema } from './memory-definition.ts';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = formatsModule.default;

/** The type names JSON Schema defines; anything else in `type` is a typo we refuse. */
export const JSON_SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/** `ttl_seconds` is a Postgres integer; a larger TTL (over 68 years) would fail in the database. */
export const MAX_TTL_SECONDS = 2_147_483_647;

/**
 * ajv options for memory schemas. Strict mode stays on so an unknown keyword (a typo such as
 * `minLenght`, or a UI hint such as `ui:widget`) is refused when the definition is saved, not
 * discovered when a value is written. Union types (`["string", "null"]`) are allowed.
 */
export const MEMORY_SCHEMA_AJV_OPTIONS: Options = { strict: true, allowUnionTypes: true };

const ajv = new Ajv(MEMORY_SCHEMA_AJV_OPTIONS);
addFormats(ajv);

type JsonObject = Record<string, unknown>;

/** Memory values are small facts; these bounds keep a hostile schema from exhausting the stack or the CPU. */
export const MAX_SCHEMA_DEPTH = 16;
export const MAX_SCHEMA_NODES = 2_000;

/**
 * Checks a memory schema against the definition rules and returns a normalised copy: an object
 * schema with named properties, each with a valid `type` and a non-empty `description`, arrays
 * with `items`, `required` naming only existing properties, and `additionalProperties: false`
 * on every object schema (added when absent). Throws BOT_ERR_MEMORY_SCHEMA_INVALID with the reason
 * and the offending `field` otherwise.
 *
 * @example
 * normalizeMemorySchema({ type: 'object', properties: { city: { type: 'string', description: 'Home city' } } });
 * // → { type: 'object', properties: { city: … }, additionalProperties: false }
 */
export function normalizeMemorySchema(input: unknown): MemorySchema {
  if (!isObject(input)) fail('schema', 'The schema must be a JSON object');
  checkSize(input);
  const schema = structuredClone(input);
  if (schema.type !== 'object') fail('schema.type', 'The schema must have "type": "object"');
  if (!isObject(schema.properties) || Object.keys(schema.properties).length === 0) {
    fail('schema.properties', 'The schema must name at least one property in "properties"');
  }
  for (const [name, property] of Object.entries(schema.properties)) {
    checkDescribedProperty(property, `schema.properties.${name}`);
  }
  normalizeNode(schema, 'schema');
  compile(schema);
  return schema;
}

/**
 * The TTL rule: `null` or absent means permanent, else a positive whole number of seconds.
 *
 * @example
 * checkTtlSeconds(undefined); // null
 * checkTtlSeconds(3600); // 3600
 * checkTtlSeconds(0); // throws BOT_ERR_MEMORY_TTL_INVALID
 */
export function checkTtlSeconds(ttl: unknown): number | null {
  if (ttl === null || ttl === undefined) return null;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_TTL_SECONDS) {
    throw new AppError(
      'BOT_ERR_MEMORY_TTL_INVALID',
      `ttlSeconds must be null (permanent) or a whole number of seconds from 1 to ${MAX_TTL_SECONDS}`,
      { field: 'ttlSeconds', value: ttl },
    );
  }
  return ttl;
}

/**
 * Refuses schemas nested deeper than MAX_SCHEMA_DEPTH or with more than MAX_SCHEMA_NODES values,
 * iteratively, before any recursive step (clone, normalise, compile) could overflow the stack.
 */
function checkSize(schema: JsonObject): void {
  const pending: { value: unknown; depth: number }[] = [{ value: schema, depth: 0 }];
  for (let nodes = 0; pending.length > 0; nodes += 1) {
    const { value, depth } = pending.pop()!;
    if (nodes > MAX_SCHEMA_NODES) fail('schema', `The schema is too large (over ${MAX_SCHEMA_NODES} values)`);
    if (depth > MAX_SCHEMA_DEPTH * 2) fail('schema', `The schema is nested too deeply (over ${MAX_SCHEMA_DEPTH} levels)`);
    if (typeof value === 'object' && value !== null) {
      for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
    }
  }
}

/** Top-level properties are shown to AI actions, so each must say what belongs in it. */
function checkDescribedProperty(property: unknown, field: string): void {
  if (!isObject(property)) fail(field, 'Each property must be a JSON object schema');
  if (property.type === undefined) fail(`${field}.type`, 'Each property needs a "type"');
  if (typeof property.description !== 'string' || property.description.trim() === '') {
    fail(`${field}.description`, 'Each property needs a non-empty "description"');
  }
}

/** Checks one schema node and, recursively, the properties and items below it. */
function normalizeNode(node: JsonObject, field: string): void {
  const types = typeNames(node.type, `${field}.type`);
  if (node.title !== undefined && typeof node.title !== 'string') fail(`${field}.title`, '"title" must be a string');
  if (types.includes('array') && !isObject(node.items)) {
    fail(`${field}.items`, 'An array property needs an "items" schema object');
  }
  if (isObject(node.items)) normalizeNode(node.items, `${field}.items`);
  if (types.includes('object')) normalizeObject(node, field);
}

function normalizeObject(node: JsonObject, field: string): void {
  if (!isObject(node.properties)) fail(`${field}.properties`, 'An object schema must name its properties in "properties"');
  if (node.patternProperties !== undefined) {
    fail(`${field}.patternProperties`, 'Object schemas are strict: name each property instead of "patternProperties"');
  }
  if (node.additionalProperties === undefined) node.additionalProperties = false;
  if (node.additionalProperties !== false) {
    fail(`${field}.additionalProperties`, 'Object schemas are strict: "additionalProperties" must be false or absent');
  }
  checkRequired(node.required, Object.keys(node.properties), `${field}.required`);
  for (const [name, property] of Object.entries(node.properties)) {
    const propertyField = `${field}.properties.${name}`;
    if (!isObject(property)) fail(propertyField, 'Each property must be a JSON object schema');
    if (property.type === undefined) fail(`${propertyField}.type`, 'Each property needs a "type"');
    normalizeNode(property, propertyField);
  }
}

function checkRequired(required: unknown, names: string[], field: string): void {
  if (required === undefined) return;
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    fail(field, '"required" must be an array of property names');
  }
  const unknown = required.find((name) => !names.includes(name));
  if (unknown !== undefined) fail(field, `"required" names "${unknown}", which is not a property`);
  if (new Set(required).size !== required.length) fail(field, '"required" lists a property twice');
}

/** The node's type names (`[]` when it has none); refuses names JSON Schema does not define. */
function typeNames(type: unknown, field: string): string[] {
  if (type === undefined) return [];
  const names = Array.isArray(type) ? type : [type];
  const valid = names.length > 0 && names.every((name) => (JSON_SCHEMA_TYPES as readonly unknown[]).includes(name));
  if (!valid || new Set(names).size !== names.length) {
    fail(field, `"type" must be one of ${JSON_SCHEMA_TYPES.join(', ')}, or an array of distinct ones`);
  }
  return names as string[];
}

/** The final word: the normalised schema must compile, which catches bad keyword values too. */
function compile(schema: MemorySchema): void {
  try {
    ajv.compile(schema);
  } catch (error) {
    fail('schema', `The schema does not compile: ${(error as Error).message}`, error);
  } finally {
    // The checker keeps nothing: ajv would otherwise cache every schema it ever saw.
    ajv.removeSchema(schema);
  }
}

function fail(field: string, reason: string, cause?: unknown): never {
  throw new AppError('BOT_ERR_MEMORY_SCHEMA_INVALID', reason, { field }, cause === undefined ? undefined : { cause });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
