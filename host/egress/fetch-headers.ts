import type { IncomingHttpHeaders } from 'node:http';

/**
 * The headers `fetch` adds to a request that lacks them, so a platform sees the same request
 * whether the host sends it through `fetch` or straight through its connection pool: plugins
 * were written against what `fetch` sends. A `range` request asks for the bytes as stored
 * (`identity`), since a range of compressed bytes could not be decoded.
 * @example withFetchDefaults([['content-type', 'application/json']], new URL('https://api.example/x'))
 * // ['content-type', 'application/json', 'accept', '*' + '/*', …, 'accept-encoding', 'br, gzip, deflate, zstd']
 */
export function withFetchDefaults(headers: readonly (readonly [string, string])[], url: URL): string[] {
  const flat: string[] = [];
  const present = new Set<string>();
  for (const [name, value] of headers) {
    flat.push(name, value);
    present.add(name);
  }
  const add = (name: string, value: string) => {
    if (!present.has(name)) flat.push(name, value);
  };
  add('accept', '*/*');
  add('accept-language', '*');
  add('sec-fetch-mode', 'cors');
  add('user-agent', 'undici');
  if (present.has('range')) add('accept-encoding', 'identity');
  else add('accept-encoding', url.protocol === 'https:' ? 'br, gzip, deflate, zstd' : 'gzip, deflate');
  return flat;
}

/**
 * A response's headers as `fetch`'s `Headers` lists them: names in lower case and sorted, the
 * values of a repeated header joined with ", ", except `set-cookie`, whose values stay apart
 * (a cookie's `Expires` holds a comma).
 * @example fetchHeaderPairs({ 'x-b': '1', 'set-cookie': ['a=1', 'b=2'] }) // [['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-b', '1']]
 */
export function fetchHeaderPairs(headers: IncomingHttpHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name of Object.keys(headers).sort()) {
    const value = headers[name];
    if (value === undefined) continue;
    if (!Array.isArray(value)) pairs.push([name, value]);
    else if (name === 'set-cookie') for (const cookie of value) pairs.push([name, cookie]);
    else pairs.push([name, value.join(', ')]);
  }
  return pairs;
}
