import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { create } from 'tar';
import { AppError } from '../../errors/app-error.ts';
import { extractChannelPackage } from './extract-channel-package.ts';
import type { RegistrySettings } from './registry-settings.ts';
import { withRegistryClient } from './pacote-client.ts';
import type { TarballLimits } from './read-channel-tarball.ts';
import { resolveChannelDependencies, type PlacedDependency } from './resolve-channel-dependencies.ts';
import { integrityOf } from './tarball-integrity.ts';
import type { RegistryKey } from './verify-registry-signatures.ts';

/** A package's dependencies as installed, in one tarball every instance unpacks the same. */
export interface DependencyBundle {
  /** gzip tar of the version folder's `node_modules` (the package and the peers aside), entries under `package/`, no links. */
  tarball: Buffer;
  /** Its sha512 (SRI). */
  integrity: string;
  packages: Array<Pick<PlacedDependency, 'name' | 'version' | 'path' | 'integrity'>>;
}

export interface DependencyOptions {
  /** Names the host provides (`@bot-ai/api`, `zod`…): never fetched. */
  hostPeers: readonly string[];
  /** The package's own bundled dependencies (`bundleDependencies`): in its tarball already. */
  bundled?: readonly string[];
  /** Refuse a packed bundle larger than this (TOO_LARGE); 48 MiB by default. */
  maxBundleBytes?: number;
  /** Refuse a dependency without a registry signature (BOT_CHANNEL_REQUIRE_SIGNED). */
  requireSigned?: boolean;
  /** The registry's keys as the package was judged by (null: none published); asked of the registry when absent. */
  registryKeys?: RegistryKey[] | null;
}

/** What a dependency bundle may unpack to: a tree of dependencies is larger than one package. */
export const DEPENDENCY_BUNDLE_LIMITS: Readonly<TarballLimits> = Object.freeze({
  maxEntryBytes: 16 * 1024 * 1024,
  maxTotalBytes: 128 * 1024 * 1024,
  maxEntries: 20_000,
});
const DEFAULT_MAX_BUNDLE_BYTES = 48 * 1024 * 1024;
const MAX_PACKAGES = 500;
const MAX_TARBALL_BYTES = 20 * 1024 * 1024;

/**
 * Fetches the dependencies of `requiredBy` (its package.json `dependencies`, less those it bundles
 * and the host's peers) from `registry` alone, as resolve-channel-dependencies.ts checks and
 * lays them out (each version's registry signature checked), and packs them into one bundle: each unpacked by the host's own extractor (no
 * links, modes 0644/0755, no script run, no `bin` linked), then tarred. Undefined when there is
 * nothing to fetch. Every request shares the registry's deadline.
 * @example const bundle = await fetchChannelDependencies({ 'left-pad': '^1' }, 'bot-channel-x@1.0.0', registry, { hostPeers: ['zod'] })
 */
export async function fetchChannelDependencies(dependencies: Record<string, string>, requiredBy: string, registry: RegistrySettings, options: DependencyOptions): Promise<DependencyBundle | undefined> {
  const skipped = new Set([...options.hostPeers, ...(options.bundled ?? [])]);
  const wanted = Object.fromEntries(Object.entries(dependencies).filter(([name]) => !skipped.has(name)));
  if (Object.keys(wanted).length === 0) return undefined;
  const placed = await withRegistryClient(registry, (client) =>
    resolveChannelDependencies(client, wanted, requiredBy, { hostPeers: options.hostPeers, maxPackages: MAX_PACKAGES, maxTarballBytes: MAX_TARBALL_BYTES, requireSigned: options.requireSigned ?? false, registryKeys: options.registryKeys }),
  );
  const tarball = await packDependencies(placed);
  const maxBytes = options.maxBundleBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  if (tarball.length > maxBytes) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE', `The dependencies of ${requiredBy} take more than ${maxBytes} bytes packed`);
  return { tarball, integrity: integrityOf(tarball), packages: placed.map(({ name, version, path, integrity }) => ({ name, version, path, integrity })) };
}

/** Unpacks each dependency at its place (parents first: a nested one lands in its parent's folder), then tars the whole. */
async function packDependencies(placed: PlacedDependency[]): Promise<Buffer> {
  const work = await mkdtemp(path.join(tmpdir(), 'bot-channel-dependencies-'));
  try {
    const byDepth = [...placed].sort((a, b) => a.path.split('/').length - b.path.split('/').length);
    for (const dependency of byDepth) await extractChannelPackage(dependency.tarball, path.join(work, 'package', ...dependency.path.split('/')));
    return await buffer(create({ gzip: true, portable: true, cwd: work }, ['package']));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
