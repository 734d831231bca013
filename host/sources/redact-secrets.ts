import { SECRET_MASK } from './secret-settings.ts';

/**
 * `text` with every non-empty secret setting's value replaced by the mask: for a plugin's own
 * words (an error message) shown to an operator, which may quote a token it was given (a URL
 * with the bot token in its path). `keys` undefined means the channel is unknown: every string
 * setting counts as secret.
 * @example redactSecrets('token 123:abc refused', { token: '123:abc' }, ['token']) // 'token ******** refused'
 */
export function redactSecrets(text: string, settings: Record<string, unknown>, keys: string[] | undefined): string {
  const secrets = (keys ?? Object.keys(settings))
    .map((key) => settings[key])
    .filter((value): value is string => typeof value === 'string' && value !== '')
    // Longest first: a secret that contains another is masked whole.
    .sort((a, b) => b.length - a.length);
  return secrets.reduce((redacted, secret) => redacted.replaceAll(secret, SECRET_MASK), text);
}
