/**
 * What a channel's runner may read: the runner's own code (its bundle, see runner-bundle.ts), and
 * the plugin's files with the modules it can resolve — its own package, and the packages of each
 * `node_modules` folder on its way up to the file system's root, as Node's resolution walks them.
 * An entry counts only when its real path passes the link policy (link-policy.ts): a package
 * inside those folders or the app's workspaces, not another channel, not the host's own files.
 * Nothing else: no host source beyond the runner, no data directory, no other plugin. Package
 * entries are listed one by one, so the same list serves as bubblewrap's binds and as the
 * permission model's `--allow-fs-read` (which cannot carve a folder out of an allowed one).
 *
 * Links are kept as links: Node resolves a module through its real path and looks for the
 * module's own dependencies from there, so a link bound as a plain folder would change what
 * resolves. Each link on the way to a path is recreated inside the sandbox, and the real folder
 * it leads to is bound.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appWorkspaces, linkTargetRefusal, SYSTEM_FOLDERS, type LinkPolicy } from './link-policy.ts';

const CHANNEL_PACKAGE = /^bot-channel-/;
const HOST_ROOT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export interface ReadableTree {
  /** Real folders and files, bound read-only at their own path. */
  binds: string[];
  /** Links recreated inside the sandbox: `[path, target as the link holds it]`. */
  links: Array<[string, string]>;
}

export interface ReadPathOptions {
  /** The app's root: where the host's package.json and `host/` are. Default: this host's. */
  hostRoot?: string;
  /** Folders of the host no runner may read, wherever a link leads (the data directory). */
  privatePaths?: string[];
  /** Roots of the other discovered channels. */
  otherChannels?: string[];
}

/** Every path of the tree, links included: what the permission model must let the runner read. */
export function readablePaths(tree: ReadableTree): string[] {
  return [...tree.binds, ...tree.links.map(([link]) => link)];
}

/**
 * The folders and files the runner of `realFile` (the channel file's real path) may read;
 * `runnerCode` is the runner's own code (its bundle, see runner-bundle.ts).
 */
export function pluginReadPaths(realFile: string, runnerCode: string[], options: ReadPathOptions = {}): ReadableTree {
  return asTree(pluginPaths(realFile, runnerCode, options));
}

/**
 * The link policy of the plugin whose root is `root`, for a runner whose code is `runnerCode`:
 * the `node_modules` folders Node walks from either, the app's workspaces, and what stays hidden.
 */
export function pluginLinkPolicy(root: string, runnerCode: string[], options: ReadPathOptions = {}): LinkPolicy {
  const hostRoot = options.hostRoot ?? HOST_ROOT;
  return {
    ownRoot: root,
    moduleFolders: moduleFolders([root, ...runnerCode]).map((folder) => realpathOrUndefined(folder) ?? folder),
    workspaces: appWorkspaces(hostRoot),
    hidden: [path.join(hostRoot, 'host'), ...(options.privatePaths ?? []).map((file) => path.resolve(file))],
    notAbove: [hostRoot, ...SYSTEM_FOLDERS],
    otherChannels: options.otherChannels ?? [],
  };
}

function pluginPaths(realFile: string, runnerCode: string[], options: ReadPathOptions): string[] {
  const root = pluginRoot(realFile);
  const policy = pluginLinkPolicy(root, runnerCode, options);
  const readable = new Set<string>([...runnerCode, root]);
  for (const start of [root, ...runnerCode]) {
    // Node reads the nearest package.json for a module's type (the bundle holds its own).
    const manifest = nearestManifest(start);
    if (manifest) readable.add(manifest);
  }
  for (const modules of moduleFolders([root, ...runnerCode])) addPackages(modules, policy, readable);
  return [...readable];
}

/** The `node_modules` folders Node walks up from each of `starts`, once each. */
function moduleFolders(starts: string[]): string[] {
  const found = new Set<string>();
  for (const start of starts) {
    for (const dir of ancestors(start)) {
      const modules = path.join(dir, 'node_modules');
      if (path.basename(dir) !== 'node_modules' && isDirectory(modules)) found.add(modules);
    }
  }
  return [...found];
}

function nearestManifest(start: string): string | undefined {
  const from = isDirectory(start) ? start : path.dirname(start);
  return ancestors(from)
    .map((dir) => path.join(dir, 'package.json'))
    .find((file) => existsSync(file));
}

/**
 * The plugin's own files: the package it belongs to when that is a channel package (installed
 * under `node_modules`, or an npm workspace), else a local channel's own folder.
 */
export function pluginRoot(realFile: string): string {
  const dirs = ancestors(path.dirname(realFile));
  // An installed package first: a package.json inside it (`dist/esm/package.json` holding only
  // `"type"`) must not make the plugin's own root one of its subfolders.
  const installed = dirs.find((dir) => {
    const parent = path.basename(path.dirname(dir));
    return parent === 'node_modules' || (parent.startsWith('@') && path.basename(path.dirname(path.dirname(dir))) === 'node_modules');
  });
  if (installed) return installed;
  const named = dirs.find((dir) => hasNamedManifest(dir));
  return named && CHANNEL_PACKAGE.test(path.basename(named)) ? named : localChannelRoot(realFile);
}

/**
 * A local channel's own files: its folder when it has one of its own (`channels/<name>/`), else
 * only the file itself, since the folder then holds other channels too.
 */
function localChannelRoot(realFile: string): string {
  const dir = path.dirname(realFile);
  const channels = readdirSync(dir).filter((name) => name.endsWith('.channel.js'));
  return channels.length > 1 ? realFile : dir;
}

function hasNamedManifest(dir: string): boolean {
  try {
    return typeof (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'string';
  } catch {
    return false;
  }
}

/** Splits the paths into links on the way and real paths, dropping what a bound folder already holds. */
function asTree(paths: string[]): ReadableTree {
  const entries = new Map<string, string | undefined>();
  for (const file of paths) addWithLinks(file, entries, 0);
  const binds = [...entries].flatMap(([file, link]) => (link === undefined ? [file] : []));
  const inside = (file: string) => binds.some((bind) => file.startsWith(`${bind}/`));
  return {
    binds: binds.filter((file) => !inside(file)),
    links: [...entries].flatMap(([file, link]) => (link !== undefined && !inside(file) ? [[file, link] as [string, string]] : [])),
  };
}

const MAX_LINK_DEPTH = 32;

function addWithLinks(file: string, entries: Map<string, string | undefined>, depth: number): void {
  const parts = path.resolve(file).split(path.sep).filter(Boolean);
  let current: string = path.sep;
  for (const [index, part] of parts.entries()) {
    const next = path.join(current, part);
    let target: string;
    try {
      if (!lstatSync(next).isSymbolicLink()) {
        current = next;
        continue;
      }
      target = readlinkSync(next);
    } catch {
      return; // vanished or unreadable: nothing to bind
    }
    entries.set(next, target);
    if (depth < MAX_LINK_DEPTH) addWithLinks(path.join(path.resolve(current, target), ...parts.slice(index + 1)), entries, depth + 1);
    return;
  }
  if (!entries.has(current)) entries.set(current, undefined);
}

function ancestors(start: string): string[] {
  const found: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    found.push(dir);
    if (dir === path.dirname(dir)) return found;
  }
}

/** Each package of a `node_modules` folder the policy lets the runner read; a linked one at its real path too. */
function addPackages(modules: string, policy: LinkPolicy, readable: Set<string>): void {
  for (const entry of packageEntries(modules)) {
    const full = path.join(modules, entry.name);
    const real = realpathOrUndefined(full);
    if (!real || linkTargetRefusal(real, policy) !== undefined) continue;
    readable.add(full);
    if (real !== full) readable.add(real);
  }
}

/**
 * Top-level entries and those of scopes (`@bot-ai/api`, the scope folder itself possibly a link);
 * dot entries (`.bin`, caches) are not packages.
 */
function packageEntries(modules: string): Array<{ name: string }> {
  const entries = readdirSync(modules, { withFileTypes: true }).filter((entry) => !entry.name.startsWith('.'));
  const plain = entries.filter((entry) => !entry.name.startsWith('@'));
  const scoped = entries
    .filter((entry) => entry.name.startsWith('@') && isDirectory(path.join(modules, entry.name)))
    .flatMap((scope) => readdirSync(path.join(modules, scope.name)).map((name) => ({ name: `${scope.name}/${name}` })));
  return [...plain, ...scoped];
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
