/** What a secret setting reads as in every response. */
export const SECRET_MASK = '********';

type Settings = Record<string, unknown>;

/** The settings a channel marks as secrets (`ui:widget: password` in its JSON Schema). */
export function secretKeys(settingsJsonSchema: Record<string, unknown>): string[] {
  const properties = (settingsJsonSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties)
    .filter(([, property]) => property?.['ui:widget'] === 'password')
    .map(([key]) => key);
}

/**
 * A copy with every set secret replaced by the mask; an empty secret stays empty, so an admin
 * can see that it is not set yet.
 * @example maskSecrets({ api_key: 'k', api_url: 'u' }, ['api_key']) // { api_key: '********', api_url: 'u' }
 */
export function maskSecrets(settings: Settings, keys: string[]): Settings {
  const masked = { ...settings };
  for (const key of keys) {
    if (typeof masked[key] === 'string' && masked[key] !== '') masked[key] = SECRET_MASK;
  }
  return masked;
}

/**
 * An update's settings with the stored secrets kept wherever the update sends the mask back or
 * leaves the secret out: a form can round-trip masked values without erasing them.
 */
export function keepStoredSecrets(incoming: Settings, stored: Settings, keys: string[]): Settings {
  const merged = { ...incoming };
  for (const key of keys) {
    if ((merged[key] === undefined || merged[key] === SECRET_MASK) && stored[key] !== undefined) merged[key] = stored[key];
  }
  return merged;
}
