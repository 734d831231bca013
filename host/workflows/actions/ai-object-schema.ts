import { Ajv, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { jsonSchema, type JSONSchema7, type Schema } from 'ai';
import type { ActionInvocation } from '../runtime/action.ts';
import { invalidInput } from './ai-inputs.ts';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = formatsModule.default;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

/** Compiled validators by schema text; bounded, since schemas may come from expressions. */
const compiled = new Map<string, { schema: object; validate: ValidateFunction }>();
const MAX_COMPILED = 200;

/**
 * The `schema` input of `ai_generate_object` / `ai_infer_object` as an AI SDK schema: sent to
 * the model as the response format, and every answer checked against it with ajv, so `object`
 * always matches (the SDK's `jsonSchema` alone checks nothing). Throws `BOT_ERR_AI_INPUT_INVALID`
 * when the schema is not an object schema or does not compile.
 */
export function objectSchemaFor(invocation: ActionInvocation, schema: Record<string, unknown>): Schema<Record<string, unknown>> {
  if (schema['type'] !== 'object') throw invalidInput(invocation, 'schema', 'must be a JSON Schema with type: object');
  const validate = validatorFor(invocation, schema);
  return jsonSchema<Record<string, unknown>>(schema as JSONSchema7, {
    validate: (value) =>
      validate(value)
        ? { success: true, value: value as Record<string, unknown> }
        : { success: false, error: new Error(`The object does not match the schema: ${ajv.errorsText(validate.errors)}`) },
  });
}

function validatorFor(invocation: ActionInvocation, schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached.validate;
  // $schema and $id would make ajv look up meta-schemas or clash between tasks; neither changes what is valid here.
  const { $schema: _dialect, $id: _id, ...compilable } = schema;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(compilable);
  } catch (error) {
    throw invalidInput(invocation, 'schema', `is not a valid JSON Schema: ${(error as Error).message}`, error);
  }
  if (compiled.size >= MAX_COMPILED) evictOldest();
  compiled.set(key, { schema: compilable, validate });
  return validate;
}

function evictOldest(): void {
  const [key, entry] = compiled.entries().next().value!;
  compiled.delete(key);
  ajv.removeSchema(entry.schema);
}
