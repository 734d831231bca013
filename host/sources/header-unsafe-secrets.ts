import { secretKeys } from './secret-settings.ts';

/** Visible ASCII (0x21–0x7E): what a token may hold to go into an HTTP header unchanged. */
const VISIBLE_ASCII = /^[\x21-\x7E]*$/;

/** One setting refused, in the shape of the settings validator's problems. */
export interface SettingProblem {
  path: string;
  message: string;
}

/**
 * The secrets (`ui:widget: password`) that no channel could send: a key or token goes into an
 * HTTP header, where a character outside visible ASCII (a pasted `…`, a space, a newline) makes
 * every request fail before it leaves, far from the setting that caused it.
 * @example headerUnsafeSecrets(schema, { api_key: 'abc…' }) // [{ path: '/api_key', message: 'must be visible ASCII: …' }]
 */
export function headerUnsafeSecrets(settingsJsonSchema: Record<string, unknown>, settings: Record<string, unknown>): SettingProblem[] {
  return secretKeys(settingsJsonSchema)
    .filter((key) => typeof settings[key] === 'string' && !VISIBLE_ASCII.test(settings[key]))
    .map((key) => ({ path: `/${key}`, message: describeFirstBadCharacter(settings[key] as string) }));
}

function describeFirstBadCharacter(value: string): string {
  const chars = [...value];
  const index = chars.findIndex((char) => !VISIBLE_ASCII.test(char));
  const codePoint = (chars[index] ?? '').codePointAt(0) ?? 0;
  return `must be visible ASCII: it is sent in an HTTP header (U+${codePoint.toString(16).toUpperCase().padStart(4, '0')} at character ${index + 1})`;
}
