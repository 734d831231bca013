import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { MemorySchema } from '../definitions/memory-definition.ts';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = formatsModule.default;

/** One reason a value does not match its schema; `path` is a JSON pointer into the value. */
export interface ValueError {
  path: string;
  message: string;
}

/** What the validator needs to know about a definition: its identity, version and schema. */
export interface ValidatedDefinition {
  id: string;
  /** Changes whenever the schema may have changed, so it invalidates the cached validator. */
  updatedAt: string;
  schema: MemorySchema;
}

interface CachedValidator {
  version: string;
  schema: MemorySchema;
  validate: ValidateFunction;
}

/**
 * Validates memory values against their definition's JSON Schema with ajv. Compiling costs far
 * more than validating, so compiled functions are kept per definition until its `updatedAt`
 * changes.
 */
export class MemoryValueValidator {
  // Union types (`["string", "null"]`) are allowed, as when the definition was saved; without
  // this, ajv would write a strict-mode warning to the console at every compile of one.
  readonly #ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  readonly #cache = new Map<string, CachedValidator>();

  constructor() {
    addFormats(this.#ajv);
  }

  /** The problems with `value`, or an empty list when it matches. Throws when the schema does not compile. */
  check(definition: ValidatedDefinition, value: unknown): ValueError[] {
    const validate = this.#validatorFor(definition);
    return validate(value) ? [] : (validate.errors ?? []).map(toValueError);
  }

  #validatorFor(definition: ValidatedDefinition): ValidateFunction {
    const cached = this.#cache.get(definition.id);
    if (cached?.version === definition.updatedAt) return cached.validate;
    // ajv keeps every compiled schema too; drop the old one so edits do not accumulate.
    if (cached) this.#ajv.removeSchema(cached.schema);
    const schema = strictTopLevel(definition.schema);
    const validate = this.#ajv.compile(schema);
    this.#cache.set(definition.id, { version: definition.updatedAt, schema, validate });
    return validate;
  }
}

/**
 * The definition rules already demand an object schema without additional properties; forcing
 * both here means a value can never smuggle extra keys past a schema stored some other way.
 * `$id` is dropped because two definitions could share one, which ajv refuses.
 */
function strictTopLevel(schema: MemorySchema): MemorySchema {
  const { $id: _id, ...rest } = schema;
  return { ...rest, type: 'object', additionalProperties: false };
}

function toValueError(error: ErrorObject): ValueError {
  const path = error.instancePath || '/';
  if (error.keyword === 'additionalProperties') {
    const property = String(error.params['additionalProperty']);
    return { path: joinPointer(error.instancePath, property), message: `is not an allowed property` };
  }
  if (error.keyword === 'required') {
    const property = String(error.params['missingProperty']);
    return { path: joinPointer(error.instancePath, property), message: 'is required' };
  }
  return { path, message: error.message ?? `fails ${error.keyword}` };
}

function joinPointer(base: string, property: string): string {
  return `${base}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
