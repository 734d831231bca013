import semver from 'semver';
import { AppError } from '../../errors/app-error.ts';
import { checkDependencySpec, type RegistryDependency } from './check-dependency-spec.ts';
import type { RegistryClient, RegistryVersion } from './pacote-client.ts';
import { hasSha512, integrityMatches, integrityOf } from './tarball-integrity.ts';
import { verifyRegistrySignatures, type RegistryKey, type SignatureCheck } from './verify-registry-signatures.ts';

/** One dependency fetched and placed: where it goes below the version folder's `node_modules`. */
export interface PlacedDependency {
  name: string;
  version: string;
  /** `left-pad`, or `a/node_modules/b` when another version of `b` is already on `a`'s way up. */
  path: string;
  /** The tarball's sha512, matched against the registry's `dist.integrity`. */
  integrity: string;
  /** Whether the registry's signature of this version verified (`verified`) or there was none to check (`unsigned`). */
  trust: SignatureCheck['trust'];
  tarball: Buffer;
}

export interface ResolveOptions {
  /** Names the host provides: never fetched, refused below the package's own dependencies. */
  hostPeers: readonly string[];
  /** Most packages in the tree. */
  maxPackages: number;
  /** Largest single tarball, in bytes. */
  maxTarballBytes: number;
  /** Refuse a dependency the registry does not sign (BOT_CHANNEL_REQUIRE_SIGNED); one whose signature fails is refused always. */
  requireSigned?: boolean;
  /** The keys to judge signatures by (null: none published); the client's answer when absent. */
  registryKeys?: RegistryKey[] | null | undefined;
}

/** A package placed in the tree: its folder's children are what Node finds first from it. */
interface TreeNode {
  /** The registry's word on the version placed. */
  release: RegistryVersion;
  trust: SignatureCheck['trust'];
  path: string;
  container: TreeNode | undefined;
  children: Map<string, TreeNode>;
  id: string;
}

/**
 * Resolves and fetches the dependency tree of a channel package from one registry, the way npm
 * lays out `node_modules` (each version picked by pacote as npm-pick-manifest picks it): a
 * dependency goes to the top `node_modules` unless another version of it is already on the way
 * up from the package needing it, in which case it nests under that package. Every spec of the
 * tree is checked before it is fetched (checkDependencySpec), every version's registry signature
 * as the package's own is (a signature that does not verify refuses the install), every tarball
 * must match the registry's sha512 `dist.integrity`, and nothing of any package runs: peer dependencies of the
 * dependencies are the host's (npm's `legacyPeerDeps`), install scripts and `bin` are ignored.
 * @example const placed = await resolveChannelDependencies(client, fetched.manifest.dependencies, 'bot-channel-x@1.0.0', options)
 */
export async function resolveChannelDependencies(client: RegistryClient, dependencies: Record<string, string>, requiredBy: string, options: ResolveOptions): Promise<PlacedDependency[]> {
  const nodes = await resolveTree(client, dependencies, requiredBy, options);
  // Only once the whole tree passed its checks: a refusal anywhere downloads nothing.
  const placed: PlacedDependency[] = [];
  for (const node of nodes) placed.push(await fetchPlaced(client, node, options.maxTarballBytes));
  return placed;
}

/** Every package of the tree, placed, parents before the packages nested in them. */
async function resolveTree(client: RegistryClient, dependencies: Record<string, string>, requiredBy: string, options: ResolveOptions): Promise<TreeNode[]> {
  const top = new Map<string, TreeNode>();
  const nodes: TreeNode[] = [];
  const queue: Array<{ requester: TreeNode | undefined; dependencies: Record<string, string>; id: string }> = [{ requester: undefined, dependencies, id: requiredBy }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const wanted = Object.entries(next.dependencies).map(([name, spec]) => checkDependencySpec(name, spec, next.id, options.hostPeers));
    for (const dependency of wanted) {
      const node = await place(client, dependency, next.requester, top, options);
      if (!node) continue;
      if (nodes.length >= options.maxPackages) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE', `${requiredBy} needs more than ${options.maxPackages} dependencies`);
      nodes.push(node);
      queue.push({ requester: node, dependencies: node.release.dependencies, id: node.id });
    }
  }
  return nodes;
}

/** Places `dependency` for the package whose folder is `requester` (undefined: the channel package); undefined when it is there already. */
async function place(client: RegistryClient, dependency: RegistryDependency, requester: TreeNode | undefined, top: Map<string, TreeNode>, options: ResolveOptions): Promise<TreeNode | undefined> {
  const found = foundFrom(requester, dependency.name, top);
  if (found && semver.satisfies(found.release.version, dependency.fetchSpec)) return undefined;
  const release = await client.version(dependency.name, dependency.fetchSpec);
  if (found?.release.version === release.version) return undefined;
  const { trust } = await checkSignature(client, release, options);
  // Another version is what Node finds from the requester: this one nests in the requester's folder.
  const container = found ? requester : undefined;
  const siblings = container ? container.children : top;
  if (siblings.has(dependency.name)) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED', `${dependency.name} is needed twice at one level`, { dependency: dependency.name });
  const node: TreeNode = {
    release,
    trust,
    path: container ? `${container.path}/node_modules/${dependency.name}` : dependency.name,
    container,
    children: new Map(),
    id: `${dependency.name}@${release.version}`,
  };
  siblings.set(dependency.name, node);
  return node;
}

/** What Node's resolution finds for `name` from `requester`'s folder: its own `node_modules`, then each one up. */
function foundFrom(requester: TreeNode | undefined, name: string, top: Map<string, TreeNode>): TreeNode | undefined {
  for (let level = requester; level !== undefined; level = level.container) {
    const found = level.children.get(name);
    if (found) return found;
  }
  return top.get(name);
}

async function fetchPlaced(client: RegistryClient, node: TreeNode, maxBytes: number): Promise<PlacedDependency> {
  const version = node.release;
  // pacote checks the advertised integrity as it streams; a registry that advertises none, or no sha512, is not taken at its word.
  if (!hasSha512(version.integrity)) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The registry gives no sha512 integrity for the dependency ${node.id}`);
  const tarball = await client.tarball(version, maxBytes);
  const integrity = integrityOf(tarball);
  if (!integrityMatches(integrity, version.integrity)) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The tarball of the dependency ${node.id} does not match the registry's dist.integrity`);
  return { name: version.name, version: version.version, path: node.path, integrity, trust: node.trust, tarball };
}

/**
 * A dependency's registry signature, checked as the package's own is: a dependency is code the
 * runner loads like the package, so a registry (or a mirror in between) that swaps one is caught
 * the same way. Checked before anything of the tree is downloaded.
 */
async function checkSignature(client: RegistryClient, release: RegistryVersion, options: ResolveOptions): Promise<SignatureCheck> {
  const id = `${release.name}@${release.version}`;
  let check: SignatureCheck;
  try {
    const keys = options.registryKeys === undefined ? await client.signingKeys() : (options.registryKeys ?? undefined);
    check = verifyRegistrySignatures(release, keys);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID') throw error;
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID', `A dependency's registry signature does not hold: ${(error as Error).message}`, { dependency: release.name }, { cause: error });
  }
  if (options.requireSigned && check.trust !== 'verified') {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_POLICY', `The dependency ${id} carries no registry signature, and BOT_CHANNEL_REQUIRE_SIGNED asks for one`, { dependency: release.name });
  }
  return check;
}
