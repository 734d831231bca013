import { createRequire } from 'node:module';
import { AppError } from '../../errors/app-error.ts';

/** The parts of npm-package-arg's result that classify a spec. */
interface PackageArg {
  type: 'version' | 'range' | 'tag' | 'git' | 'remote' | 'file' | 'directory' | 'alias';
  name: string | null | undefined;
  fetchSpec: string | null;
}

const npa = createRequire(import.meta.url)('npm-package-arg') as (spec: string) => PackageArg;

/** Lower-case, unscoped, as npm names new packages; the prefix is what discovery scans for. */
const CHANNEL_PACKAGE_NAME = /^bot-channel-[a-z0-9][a-z0-9._-]*$/;
const MAX_NAME_LENGTH = 214;

/** A registry spec the host may install: a channel package name and what to pick from its versions. */
export interface ChannelPackageSpec {
  name: string;
  /** An exact version, a semver range (`*` for a bare name) or the tag `latest`. */
  fetchSpec: string;
}

/**
 * Classifies `spec` with npm-package-arg and keeps only registry specs of a `bot-channel-*`
 * package: a version, a range or `latest`. Git, URL, file and alias specs, and any other tag,
 * are refused (`BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID`); so is any other name
 * (`BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID`).
 * @example parseChannelPackageSpec('bot-channel-telegram@^2') // { name: 'bot-channel-telegram', fetchSpec: '^2' }
 */
export function parseChannelPackageSpec(spec: string): ChannelPackageSpec {
  const parsed = classify(spec);
  if (!parsed.name || !parsed.fetchSpec || !isRegistrySpec(parsed)) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID', `"${printable(spec)}" is not a registry spec: give name, name@version, name@range or name@latest`);
  }
  checkChannelPackageName(parsed.name);
  return { name: parsed.name, fetchSpec: parsed.fetchSpec };
}

/**
 * Refuses (`BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID`) a name that is not `bot-channel-*` in npm's
 * lower-case form.
 * @example checkChannelPackageName('left-pad') // throws
 */
export function checkChannelPackageName(name: string): void {
  if (name.length > MAX_NAME_LENGTH || !CHANNEL_PACKAGE_NAME.test(name)) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID', `"${printable(name)}" is not a channel package name: it must be bot-channel-<name>, lower-case and unscoped`);
  }
}

function classify(spec: string): PackageArg {
  try {
    return npa(spec);
  } catch (error) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID', `"${printable(spec)}" is not a package spec`, undefined, { cause: error });
  }
}

function isRegistrySpec(parsed: PackageArg): boolean {
  return parsed.type === 'version' || parsed.type === 'range' || (parsed.type === 'tag' && parsed.fetchSpec === 'latest');
}

/** Operator input quoted in a message: one line, bounded. */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, '?').slice(0, 120);
}
