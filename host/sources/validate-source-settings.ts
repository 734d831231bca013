import { Ajv, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { AppError } from '../errors/app-error.ts';
import { headerUnsafeSecrets, type SettingProblem } from './header-unsafe-secrets.ts';
import { withoutDefaultedEgress } from './without-defaulted-egress.ts';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = formatsModule.default;

// Not strict: channel schemas carry UI keywords such as `ui:widget` that ajv does not know.
// useDefaults fills the channel's defaults in, so stored settings are complete, except for
// `x-egress` settings: their defaults are left out again (withoutDefaultedEgress).
const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true });
addFormats(ajv);

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks source settings against the JSON Schema the channel published and returns them with
 * defaults applied, except to `x-egress` settings (only what the operator gave grants egress);
 * 422 BOT_ERR_SOURCE_SETTINGS_INVALID lists every problem otherwise, secrets that could not go
 * into an HTTP header included.
 */
export function validateSourceSettings(settingsJsonSchema: Record<string, unknown>, settings: unknown): Record<string, unknown> {
  let validate = compiled.get(settingsJsonSchema);
  if (!validate) {
    validate = ajv.compile(settingsJsonSchema);
    compiled.set(settingsJsonSchema, validate);
  }
  const given = (settings ?? {}) as Record<string, unknown>;
  const copy = structuredClone(given);
  const valid = validate(copy);
  // Reported together with the schema's problems, so a form shows every field at once.
  const problems = [...(valid ? [] : schemaProblems(validate)), ...headerUnsafeSecrets(settingsJsonSchema, copy)];
  if (problems.length === 0) return withoutDefaultedEgress(settingsJsonSchema, given, copy);
  throw new AppError('BOT_ERR_SOURCE_SETTINGS_INVALID', 'The settings do not match the channel schema', { problems });
}

function schemaProblems(validate: ValidateFunction): SettingProblem[] {
  return (validate.errors ?? []).map((error) => ({
    path: error.instancePath || '/',
    message: error.message ?? 'invalid',
    ...(error.params && 'additionalProperty' in error.params ? { property: error.params.additionalProperty } : {}),
  }));
}
