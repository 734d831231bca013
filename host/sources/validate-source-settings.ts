import { Ajv, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { AppError } from '../errors/app-error.ts';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = formatsModule.default;

// Not strict: channel schemas carry UI keywords such as `ui:widget` that ajv does not know.
// useDefaults fills the channel's defaults in, so stored settings are complete.
const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true });
addFormats(ajv);

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks source settings against the JSON Schema the channel published and returns them with
 * defaults applied; 422 BOT_ERR_SOURCE_SETTINGS_INVALID lists every problem otherwise.
 */
export function validateSourceSettings(settingsJsonSchema: Record<string, unknown>, settings: unknown): Record<string, unknown> {
  let validate = compiled.get(settingsJsonSchema);
  if (!validate) {
    validate = ajv.compile(settingsJsonSchema);
    compiled.set(settingsJsonSchema, validate);
  }
  const copy = structuredClone(settings ?? {});
  if (validate(copy)) return copy as Record<string, unknown>;
  throw new AppError('BOT_ERR_SOURCE_SETTINGS_INVALID', 'The settings do not match the channel schema', {
    problems: (validate.errors ?? []).map((error) => ({
      path: error.instancePath || '/',
      message: error.message ?? 'invalid',
      ...(error.params && 'additionalProperty' in error.params ? { property: error.params.additionalProperty } : {}),
    })),
  });
}
