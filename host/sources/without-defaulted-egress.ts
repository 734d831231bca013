import { xEgressKeys } from '../egress/x-egress-origins.ts';

/**
 * `validated` without the `x-egress` settings that only the schema's default filled in: an
 * endpoint setting widens where the channel's plugin may send (loopback and internal services
 * included), and only an operator may grant that. The default comes from the plugin's own
 * schema, so storing it would let the plugin grant itself any origin. A plugin may still apply
 * its default at run time; egress then refuses that origin. (A value stored while its setting
 * was plain is kept, but grants nothing: egressGrantsOnCreate, egressGrantsOnPatch.)
 * @example withoutDefaultedEgress({ properties: { api_url: { default: 'http://127.0.0.1:3000', 'x-egress': true } } }, {}, { api_url: 'http://127.0.0.1:3000' }) // {}
 */
export function withoutDefaultedEgress(settingsJsonSchema: Record<string, unknown>, given: Record<string, unknown>, validated: Record<string, unknown>): Record<string, unknown> {
  const defaulted = xEgressKeys(settingsJsonSchema).filter((key) => !Object.hasOwn(given, key) && Object.hasOwn(validated, key));
  if (defaulted.length === 0) return validated;
  const kept = { ...validated };
  for (const key of defaulted) delete kept[key];
  return kept;
}
