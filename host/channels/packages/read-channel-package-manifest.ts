import semver from 'semver';
import { AppError } from '../../errors/app-error.ts';
import { checkEgressHosts } from '../discovery/check-egress-hosts.ts';
import type { ChannelPackageManifest } from './channel-package-manifest.ts';
import { readChannelTarball, type TarballEntry, type TarballLimits } from './read-channel-tarball.ts';

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/**
 * Reads the manifest summary from a package tarball (its `package/package.json`, the file that
 * will be installed, whatever the registry's metadata says), applying every entry rule of
 * {@link readChannelTarball} on the way, so a tarball that could not be unpacked is refused here
 * too. Refuses (`BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID`) a missing or malformed package.json,
 * a version that is not semver, or a malformed `bot.egress`.
 * @example const { name, version, hasInstallScripts } = await readChannelPackageManifest(tarball)
 */
export async function readChannelPackageManifest(tarball: Buffer, limits?: Partial<TarballLimits>): Promise<ChannelPackageManifest> {
  const entries = await readChannelTarball(tarball, limits);
  const hasBindingGyp = entries.some((entry) => entry.kind === 'file' && entry.path === 'binding.gyp');
  return summarizeManifest(parsePackageJson(entries), hasBindingGyp);
}

function parsePackageJson(entries: TarballEntry[]): Record<string, unknown> {
  const file = entries.find((entry) => entry.kind === 'file' && entry.path === 'package.json');
  if (file?.kind !== 'file') throw invalid('The tarball has no package/package.json');
  let json: unknown;
  try {
    json = JSON.parse(file.data.toString('utf8'));
  } catch (error) {
    throw invalid('package/package.json is not valid JSON', error);
  }
  if (!isRecord(json)) throw invalid('package/package.json is not a JSON object');
  return json;
}

function summarizeManifest(json: Record<string, unknown>, hasBindingGyp: boolean): ChannelPackageManifest {
  const { name, version } = json;
  if (typeof name !== 'string' || name === '') throw invalid('package/package.json has no name');
  if (typeof version !== 'string' || semver.valid(version) !== version) throw invalid('package/package.json has no valid semver version');
  const scripts = stringRecord(json.scripts);
  return {
    name,
    version,
    description: typeof json.description === 'string' ? json.description : undefined,
    dependencies: stringRecord(json.dependencies),
    bundleDependencies: bundledOf(json),
    peerDependencies: stringRecord(json.peerDependencies),
    engines: stringRecord(json.engines),
    egress: egressOf(json),
    hasInstallScripts: hasBindingGyp || INSTALL_SCRIPTS.some((script) => (scripts[script] ?? '').trim() !== ''),
  };
}

function egressOf(json: Record<string, unknown>): string[] {
  // A `bot` that is not an object declares nothing readable: null, which the check refuses.
  const declared = isRecord(json.bot) ? json.bot.egress : json.bot === undefined ? undefined : null;
  try {
    return checkEgressHosts(declared);
  } catch (error) {
    throw invalid(`package/package.json: ${(error as Error).message}`, error);
  }
}

/** npm reads both spellings; `true` bundles every dependency. */
function bundledOf(json: Record<string, unknown>): string[] {
  const declared = json.bundleDependencies ?? json.bundledDependencies;
  if (declared === true) return Object.keys(stringRecord(json.dependencies));
  return Array.isArray(declared) ? declared.filter((name): name is string => typeof name === 'string') : [];
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string, cause?: unknown): AppError {
  return new AppError('BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID', message, undefined, { cause });
}
