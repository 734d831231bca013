/**
 * `node:crypto`, loaded on the first call that needs it rather than at import: loading it starts
 * OpenSSL, a few MB of resident memory that an idle channel runner would otherwise carry.
 * @example nodeCrypto().createHmac('sha256', secret)
 */
export function nodeCrypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}
