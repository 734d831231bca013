import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { AppError } from '../../errors/app-error.ts';

/** A key from the registry's `/-/npm/v1/keys`: base64 SPKI DER, valid until `expires` (null: no end). */
export interface RegistryKey {
  keyid: string;
  keytype: string;
  key: string;
  expires: string | null;
}

/** A version as the registry describes it, with what its signature covers. */
export interface SignedVersion {
  name: string;
  version: string;
  /** `dist.integrity` exactly as the registry sent it: the signed message includes it verbatim. */
  integrity: string;
  /** `dist.signatures` as sent (checked here). */
  signatures: unknown;
  publishedAt: string | undefined;
}

/** How far the registry vouches for a version. */
export interface SignatureCheck {
  trust: 'verified' | 'unsigned';
  trustNote: string;
}

const SUPPORTED_KEY_TYPE = 'ecdsa-sha2-nistp256';
/**
 * Versions published before the registry recorded times have no time; npm dates them at this
 * cutoff (before any signing key existed), so the first key's expiry does not void their signatures.
 */
const MISSING_TIME_CUTOFF = '2015-01-01T00:00:00.000Z';

/**
 * Checks a version's registry signatures the way npm does: each signature's key id must be among
 * the registry's published keys, that key must not have expired before the version's publish
 * time, and ECDSA P-256 over `${name}@${version}:${integrity}` must verify. Any failure refuses
 * the version (`BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID`). A registry that publishes no keys,
 * or a version that carries no signature, is `unsigned`: only its integrity vouches for it.
 * @example verifyRegistrySignatures(version, await client.signingKeys()) // { trust: 'verified', trustNote: '…' }
 */
export function verifyRegistrySignatures(version: SignedVersion, keys: RegistryKey[] | undefined): SignatureCheck {
  const id = `${version.name}@${version.version}`;
  if (!keys || keys.length === 0) {
    return { trust: 'unsigned', trustNote: `The registry publishes no signing keys: ${id} is checked by its sha512 integrity only.` };
  }
  const signatures = signaturesOf(version.signatures, id);
  if (signatures.length === 0) {
    return { trust: 'unsigned', trustNote: `${id} carries no registry signature, although the registry publishes signing keys: it is checked by its sha512 integrity only.` };
  }
  for (const signature of signatures) checkSignature(version, signature, keys, id);
  const keyids = signatures.map((signature) => signature.keyid).join(', ');
  return { trust: 'verified', trustNote: `The registry's signature of ${id} verifies with its published key ${keyids}.` };
}

interface RegistrySignature {
  keyid: string;
  sig: string;
}

function signaturesOf(value: unknown, id: string): RegistrySignature[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isSignature)) throw invalid(`${id} has malformed dist.signatures`);
  return value;
}

function isSignature(value: unknown): value is RegistrySignature {
  const candidate = value as Partial<RegistrySignature> | null;
  return typeof candidate?.keyid === 'string' && typeof candidate.sig === 'string';
}

function checkSignature(version: SignedVersion, signature: RegistrySignature, keys: RegistryKey[], id: string): void {
  const key = keys.find((candidate) => candidate.keyid === signature.keyid);
  if (!key) throw invalid(`${id} is signed with key ${signature.keyid}, which the registry does not publish`);
  const publishedAt = Date.parse(version.publishedAt ?? MISSING_TIME_CUTOFF);
  // NaN (an unreadable time) compares false, so it counts as expired.
  if (key.expires !== null && !(publishedAt < Date.parse(key.expires))) {
    throw invalid(`${id} is signed with key ${key.keyid}, which expired (${key.expires}) before the version was published`);
  }
  if (!verifies(version, signature, publicKeyOf(key, id))) {
    throw invalid(`${id} has a registry signature that does not verify with key ${key.keyid}`);
  }
}

function verifies(version: SignedVersion, signature: RegistrySignature, publicKey: KeyObject): boolean {
  const message = Buffer.from(`${version.name}@${version.version}:${version.integrity}`);
  try {
    return verify('sha256', message, publicKey, Buffer.from(signature.sig, 'base64'));
  } catch {
    return false;
  }
}

function publicKeyOf(key: RegistryKey, id: string): KeyObject {
  if (key.keytype !== SUPPORTED_KEY_TYPE) throw invalid(`${id} is signed with key ${key.keyid} of type ${key.keytype}; only ${SUPPORTED_KEY_TYPE} is checked`);
  try {
    const publicKey = createPublicKey({ key: Buffer.from(key.key, 'base64'), format: 'der', type: 'spki' });
    if (publicKey.asymmetricKeyDetails?.namedCurve === 'prime256v1') return publicKey;
  } catch (error) {
    throw invalid(`The registry's key ${key.keyid} is not a readable public key`, error);
  }
  throw invalid(`The registry's key ${key.keyid} is not a P-256 key`);
}

function invalid(message: string, cause?: unknown): AppError {
  return new AppError('BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID', message, undefined, { cause });
}
