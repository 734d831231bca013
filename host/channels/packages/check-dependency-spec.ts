import { createRequire } from 'node:module';
import { AppError } from '../../errors/app-error.ts';

/** The parts of npm-package-arg's result that classify a dependency's spec. */
interface PackageArg {
  type: 'version' | 'range' | 'tag' | 'git' | 'remote' | 'file' | 'directory' | 'alias';
  fetchSpec: string | null;
}

const npa = createRequire(import.meta.url)('npm-package-arg') as { resolve(name: string, spec: string, where: string): PackageArg };

const REGISTRY_TYPES = new Set<PackageArg['type']>(['version', 'range', 'tag']);
const CHANNEL_PACKAGE = /^bot-channel-/;
/** A relative spec resolves against this, never against the host's working folder. */
const NOWHERE = '/nonexistent';

/** A dependency the host may fetch from the registry: its name and what to pick from its versions. */
export interface RegistryDependency {
  name: string;
  /** A version, a range (`*` for an empty one) or a tag. */
  fetchSpec: string;
}

/**
 * Keeps a dependency only when the registry alone can provide it: a version, a range or a tag of
 * a package that is neither a channel nor one of the host's peers. Git, tarball-URL, file, link,
 * directory and alias specs would have the host fetch code from elsewhere than the registry it
 * was given (or from its own disk); a channel-named dependency would run as part of another
 * channel; a peer must be the host's own copy (one SDK, one zod). Each is refused with
 * `BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED`, naming the dependency and who needs it.
 * @example checkDependencySpec('left-pad', '^1.3.0', 'bot-channel-x@1.0.0', ['zod']) // { name: 'left-pad', fetchSpec: '^1.3.0' }
 */
export function checkDependencySpec(name: string, spec: string, requiredBy: string, hostPeers: readonly string[]): RegistryDependency {
  const refuse = (reason: string) => new AppError('BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED', `${requiredBy} depends on ${printable(name)}@${printable(spec)}, which ${reason}`, { dependency: printable(name) });
  if (CHANNEL_PACKAGE.test(name)) throw refuse('is named like a channel package');
  if (hostPeers.includes(name)) throw refuse('is a peer the host provides: declare it in peerDependencies');
  let parsed: PackageArg;
  try {
    parsed = npa.resolve(name, spec, NOWHERE);
  } catch (error) {
    throw refuse(`is not a dependency npm understands (${(error as { code?: string }).code ?? 'invalid'})`);
  }
  if (!REGISTRY_TYPES.has(parsed.type)) throw refuse(`is a ${parsed.type} spec: only registry versions, ranges and tags are installed`);
  return { name, fetchSpec: parsed.fetchSpec || '*' };
}

/** A name or spec in a message: one line, bounded (it comes from a package). */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, '?').slice(0, 200);
}
