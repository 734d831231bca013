import { plainHttpUrl } from '../http/plain-http-url.ts';

/** The JSON Schema keyword a channel puts on a setting that names an endpoint it calls. */
export const X_EGRESS = 'x-egress';

/**
 * The origins of a source's endpoint settings: each top-level property its channel's settings
 * schema marks `"x-egress": true` and the source's `grants` name, whose stored value is an
 * http(s) URL without credentials. The grants are the keys an operator saved a value for while
 * the schema marked them (egressGrantsOnCreate, egressGrantsOnPatch), so neither a schema default
 * (never stored: withoutDefaultedEgress) nor a value stored while its setting was plain counts
 * when the plugin marks it later. `null` grants (a source saved before grants were recorded)
 * count every marked key.
 * @example xEgressOrigins({ properties: { api_url: { type: 'string', 'x-egress': true } } }, { api_url: 'http://127.0.0.1:8080/api' }, ['api_url']) // ['http://127.0.0.1:8080']
 */
export function xEgressOrigins(settingsJsonSchema: Record<string, unknown> | undefined, settings: Record<string, unknown>, grants: readonly string[] | null): string[] {
  const origins = xEgressKeys(settingsJsonSchema)
    .filter((key) => grants === null || grants.includes(key))
    .map((key) => originOf(settings[key]))
    .filter((origin): origin is string => origin !== undefined);
  return [...new Set(origins)];
}

/**
 * The settings a channel's schema marks as endpoints; none means no source can widen its egress.
 * @example xEgressKeys({ properties: { api_url: { 'x-egress': true }, api_key: {} } }) // ['api_url']
 */
export function xEgressKeys(settingsJsonSchema: Record<string, unknown> | undefined): string[] {
  const properties = (settingsJsonSchema?.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return Object.entries(properties)
    .filter(([, property]) => property?.[X_EGRESS] === true)
    .map(([key]) => key);
}

function originOf(value: unknown): string | undefined {
  return typeof value === 'string' ? plainHttpUrl(value)?.origin : undefined;
}
