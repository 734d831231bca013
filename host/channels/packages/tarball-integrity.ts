import { createHash } from 'node:crypto';

/**
 * The sha512 Subresource Integrity string of `data`, as npm writes `dist.integrity`.
 * @example integrityOf(Buffer.from('')) // 'sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=='
 */
export function integrityOf(data: Buffer): string {
  return `sha512-${createHash('sha512').update(data).digest('base64')}`;
}

/**
 * Whether the SRI string `expected` (one or more space-separated hashes, as a registry or an
 * operator gives it) holds the sha512 of `actual`. An `expected` without a sha512 never matches:
 * weaker hashes are not enough to install code.
 * @example integrityMatches(integrityOf(tarball), packument.dist.integrity)
 */
export function integrityMatches(actual: string, expected: string): boolean {
  const digest = sha512Digests(actual)[0];
  return digest !== undefined && sha512Digests(expected).includes(digest);
}

/**
 * Whether the SRI string holds a sha512 hash at all.
 * @example hasSha512('sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=') // false
 */
export function hasSha512(integrity: string): boolean {
  return sha512Digests(integrity).length > 0;
}

function sha512Digests(integrity: string): string[] {
  return integrity
    .trim()
    .split(/\s+/)
    .filter((hash) => hash.startsWith('sha512-'))
    .map((hash) => hash.slice('sha512-'.length).split('?')[0]!);
}
