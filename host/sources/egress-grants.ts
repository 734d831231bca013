import { isDeepStrictEqual } from 'node:util';
import { xEgressKeys } from '../egress/x-egress-origins.ts';
import { SECRET_MASK } from './secret-settings.ts';
import type { SourceRow } from './source.ts';

type Settings = Record<string, unknown>;

/**
 * The settings a new source grants egress with: those the channel's schema marks `x-egress` at
 * this save and the operator gave a value for. The schema is the plugin's to describe anew at
 * each runner start, so a grant is fixed here, by what the operator sent: a value stored while
 * its setting was plain (a default, a URL typed for another purpose) is never one.
 * @example egressGrantsOnCreate({ properties: { api_url: { 'x-egress': true } } }, { api_url: 'http://10.0.0.5' }, { api_url: 'http://10.0.0.5' }) // ['api_url']
 */
export function egressGrantsOnCreate(settingsJsonSchema: Record<string, unknown>, given: Settings, saved: Settings): string[] {
  return xEgressKeys(settingsJsonSchema)
    .filter((key) => given[key] !== undefined && given[key] !== null && Object.hasOwn(saved, key))
    .sort();
}

/**
 * The grants once a PATCH's `settings` are saved: a marked setting it gives a value is granted;
 * one it leaves untouched (left out, or a secret's mask sent back) keeps its grant while its
 * saved value is the one granted; one it sends as `null` loses it. A source saved before grants
 * were recorded (`egress_grants` NULL) holds a grant for each setting the schema marks now.
 * @example
 * const schema = { properties: { api_url: { 'x-egress': true }, api_key: {} } };
 * const previous = { settings: { api_url: 'http://10.0.0.5', api_key: 'k1' }, egress_grants: ['api_url'] };
 * egressGrantsOnPatch(schema, { api_key: 'k2' }, [], { api_url: 'http://10.0.0.5', api_key: 'k2' }, previous) // ['api_url']
 * egressGrantsOnPatch(schema, { api_url: null }, [], { api_key: 'k1' }, previous) // []
 */
export function egressGrantsOnPatch(
  settingsJsonSchema: Record<string, unknown>,
  patch: Settings,
  secretKeys: readonly string[],
  saved: Settings,
  previous: Pick<SourceRow, 'settings' | 'egress_grants'>,
): string[] {
  const touched = Object.fromEntries(Object.entries(patch).filter(([key, value]) => !(value === SECRET_MASK && secretKeys.includes(key))));
  const kept = (previous.egress_grants ?? xEgressKeys(settingsJsonSchema)).filter(
    (key) => !Object.hasOwn(touched, key) && Object.hasOwn(saved, key) && isDeepStrictEqual(saved[key], previous.settings[key]),
  );
  return [...new Set([...egressGrantsOnCreate(settingsJsonSchema, touched, saved), ...kept])].sort();
}
