/**
 * The settings schema with each `x-egress` setting's default turned into a placeholder. An
 * endpoint setting widens where the channel's plugin may send, and only a value the operator
 * saves grants that: a default the form filled in would be saved (and granted) unseen. The
 * operator still sees the suggestion, and types it to grant it.
 * @example egressDefaultsAsHints({ properties: { api_url: { 'x-egress': true, default: 'http://127.0.0.1:4100' } } })
 * // { properties: { api_url: { 'x-egress': true, 'ui:placeholder': 'http://127.0.0.1:4100' } } }
 */
export function egressDefaultsAsHints(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties) return schema;
  const hinted = Object.entries(properties).map(([name, property]) => {
    if (property?.['x-egress'] !== true || !('default' in property)) return [name, property] as const;
    const { default: suggested, ...rest } = property;
    return [name, { ...rest, 'ui:placeholder': String(suggested) }] as const;
  });
  return { ...schema, properties: Object.fromEntries(hinted) };
}
