/**
 * `value` (resolved against `base` when given) as a URL when it is http(s) and carries no
 * `user:password@`, else undefined. The one test of every URL the host sends to or lets a plugin
 * reach: credentials in a URL are refused everywhere, since fetch throws on them with the whole
 * URL, password included, in its message, and a redirect or a setting must not smuggle them in.
 * @example plainHttpUrl('https://api.groq.com/openai/v1')?.origin // 'https://api.groq.com'
 * @example plainHttpUrl('https://alice:s3cret@llm.internal/v1') // undefined
 */
export function plainHttpUrl(value: string, base?: string | URL): URL | undefined {
  const url = URL.parse(value, base);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  return url.username === '' && url.password === '' ? url : undefined;
}
