import { AppError } from '../../errors/app-error.ts';
import { withRegistryClient, type RegistryVersion } from './pacote-client.ts';
import { checkChannelPackageName, parseChannelPackageSpec } from './parse-channel-package-spec.ts';
import type { ChannelPackageManifest } from './channel-package-manifest.ts';
import { readChannelPackageManifest } from './read-channel-package-manifest.ts';
import { hasSha512, integrityMatches, integrityOf } from './tarball-integrity.ts';
import { verifyRegistrySignatures, type RegistryKey } from './verify-registry-signatures.ts';

export type { ChannelPackageManifest } from './channel-package-manifest.ts';

import type { RuledPackage } from './install-policy.ts';
import type { RegistrySettings } from './registry-settings.ts';

export type { RegistrySettings };

/** A channel package fetched and checked, not unpacked and never run. */
export interface FetchedPackage {
  name: string;
  version: string;
  /** sha512 SRI of the tarball (`sha512-…`), as computed here and matched against the registry's dist.integrity */
  integrity: string;
  tarball: Buffer;
  manifest: ChannelPackageManifest;
  /**
   * 'verified' (registry signature checked against its published keys), 'unsigned' (the registry
   * publishes no keys, or the version carries no signature), 'pinned' (an upload matching the
   * operator's pinned integrity), 'unverified' (an upload without a pinned integrity)
   */
  trust: 'verified' | 'unsigned' | 'pinned' | 'unverified';
  /** One sentence on what vouches for the package, for the operator to read before confirming. */
  trustNote: string;
  /** the registry's publish time of this version, when it says */
  publishedAt: string | undefined;
  /**
   * The registry's signing keys the trust was judged by (null: it publishes none); absent for an
   * upload. The dependencies are judged by the same answer, never by a second one the registry
   * could give differently.
   */
  registryKeys?: RegistryKey[] | null;
}

/** What to check beyond the registry's word. */
export interface FetchOptions {
  /** The operator's expected sha512 SRI; the tarball must match it. */
  pinnedIntegrity?: string;
  /** Refuse tarballs larger than this; 20 MiB by default. */
  maxTarballBytes?: number;
  /** The operator's rules, applied as soon as the facts they judge are known (before a registry download): throws to refuse. */
  accept?: (candidate: RuledPackage) => void;
}

/** The largest tarball the host takes, fetched or uploaded: 20 MiB. */
export const DEFAULT_MAX_TARBALL_BYTES = 20 * 1024 * 1024;

/**
 * Fetches a `bot-channel-*` package from `registry` with pacote and checks it without running
 * any of its code: the spec must be a registry spec of a channel package; the tarball's sha512
 * must match the registry's `dist.integrity` and `pinnedIntegrity` when given; the registry's
 * signature must verify when it publishes keys; the tarball must stay under the size cap and hold
 * only entries that extraction accepts; its package.json must name the version the registry
 * gave. Each failure is a `BOT_ERR_CHANNEL_PACKAGE_*` error and nothing is returned.
 * @example const fetched = await fetchChannelPackage('bot-channel-telegram@^2', { url: 'https://registry.npmjs.org/' })
 */
export async function fetchChannelPackage(spec: string, registry: RegistrySettings, options: FetchOptions = {}): Promise<FetchedPackage> {
  const wanted = parseChannelPackageSpec(spec);
  checkPinFormat(options.pinnedIntegrity);
  return withRegistryClient(registry, async (client) => {
    const version = await client.version(wanted.name, wanted.fetchSpec);
    const id = `${version.name}@${version.version}`;
    checkAdvertisedIntegrity(version, options.pinnedIntegrity, id);
    const registryKeys = await client.signingKeys();
    const signature = verifyRegistrySignatures(version, registryKeys);
    options.accept?.({ name: version.name, version: version.version, trust: signature.trust, publishedAt: version.publishedAt, fromRegistry: true });
    const tarball = await client.tarball(version, options.maxTarballBytes ?? DEFAULT_MAX_TARBALL_BYTES);
    const integrity = integrityOf(tarball);
    checkIntegrity(integrity, version.integrity, `The tarball of ${id} does not match the registry's dist.integrity`);
    if (options.pinnedIntegrity) checkIntegrity(integrity, options.pinnedIntegrity, `The tarball of ${id} does not match the pinned integrity`);
    const manifest = await readChannelPackageManifest(tarball);
    checkSameRelease(manifest, version, id);
    return { name: version.name, version: version.version, integrity, tarball, manifest, ...signature, publishedAt: version.publishedAt, registryKeys: registryKeys ?? null };
  });
}

/**
 * Checks an uploaded tarball as {@link fetchChannelPackage} checks a fetched one, reading the
 * name and version from its own `package/package.json`. With `pinnedIntegrity` the tarball must
 * match it (trust `pinned`); without, nothing vouches for it (trust `unverified`).
 * @example const fetched = await packageFromUpload(body, { pinnedIntegrity: 'sha512-…' })
 */
export async function packageFromUpload(tarball: Buffer, options: FetchOptions = {}): Promise<FetchedPackage> {
  const maxBytes = options.maxTarballBytes ?? DEFAULT_MAX_TARBALL_BYTES;
  if (tarball.length > maxBytes) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE', `The uploaded tarball is larger than ${maxBytes} bytes`);
  checkPinFormat(options.pinnedIntegrity);
  const integrity = integrityOf(tarball);
  if (options.pinnedIntegrity) checkIntegrity(integrity, options.pinnedIntegrity, `The uploaded tarball (${integrity}) does not match the pinned integrity`);
  const manifest = await readChannelPackageManifest(tarball);
  checkChannelPackageName(manifest.name);
  const id = `${manifest.name}@${manifest.version}`;
  const trust = options.pinnedIntegrity ? 'pinned' : 'unverified';
  options.accept?.({ name: manifest.name, version: manifest.version, trust, publishedAt: undefined, fromRegistry: false });
  return {
    name: manifest.name,
    version: manifest.version,
    integrity,
    tarball,
    manifest,
    trust,
    trustNote: options.pinnedIntegrity ? `The uploaded ${id} matches the pinned integrity.` : `Nothing vouches for the uploaded ${id}: no registry and no pinned integrity.`,
    publishedAt: undefined,
  };
}

function checkPinFormat(pinnedIntegrity: string | undefined): void {
  if (pinnedIntegrity !== undefined && !hasSha512(pinnedIntegrity)) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', 'The pinned integrity holds no sha512 hash (give it as sha512-<base64>)');
  }
}

/** Before downloading: the registry's own integrity must be sha512 and agree with the pin. */
function checkAdvertisedIntegrity(version: RegistryVersion, pinnedIntegrity: string | undefined, id: string): void {
  if (!hasSha512(version.integrity)) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The registry gives no sha512 integrity for ${id}`);
  if (pinnedIntegrity && !integrityMatches(version.integrity, pinnedIntegrity)) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The registry's integrity of ${id} does not match the pinned integrity`);
  }
}

function checkIntegrity(actual: string, expected: string, message: string): void {
  if (!integrityMatches(actual, expected)) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', message);
}

/** The installed package.json must be the release the registry described, not another one. */
function checkSameRelease(manifest: ChannelPackageManifest, version: RegistryVersion, id: string): void {
  if (manifest.name !== version.name || manifest.version !== version.version) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID', `The tarball of ${id} holds a package.json for another package or version`);
  }
}
