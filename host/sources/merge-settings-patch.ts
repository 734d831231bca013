type Settings = Record<string, unknown>;

/**
 * The stored settings with a PATCH's keys laid over them, key by key: a form or script that
 * sends one setting must not reset the others. A key sent as `null` is dropped, so validation
 * fills the channel's default back in (or reports it missing when the schema has none).
 * @example mergeSettingsPatch({ api_url: 'u', tenant_id: 't' }, { tenant_id: null, api_key: 'k' }) // { api_url: 'u', api_key: 'k' }
 */
export function mergeSettingsPatch(stored: Settings, patch: Settings): Settings {
  const merged: Settings = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
