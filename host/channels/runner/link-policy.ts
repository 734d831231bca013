/**
 * Where a link within a channel's reach may lead. A link is not a package: a plugin (or an
 * install script, a hand-built folder, a pnpm-style layout) can make `node_modules/x` lead to
 * `/etc`, to the host's source, to its data directory or to another channel. What a runner may
 * read is decided on the real path a link leads to, never on the link's name.
 *
 * A target is allowed when it lies inside the plugin's own root, or when it is a package (a
 * folder whose `package.json` has a name) inside a folder Node resolves packages from for this
 * plugin (a `node_modules` folder on its way up, or a workspace of the app), is not another
 * channel, and neither holds nor lies inside the host's own files.
 */
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';

export interface LinkPolicy {
  /** The plugin's own files (pluginRoot): anything inside them is the plugin's already. */
  ownRoot: string;
  /** Real paths of the `node_modules` folders Node walks for the plugin and the runner. */
  moduleFolders: string[];
  /** Real paths of the app's workspaces (its package.json `workspaces`). */
  workspaces: string[];
  /** Never readable, nor anything inside or above them: the host's source, its data directory. */
  hidden: string[];
  /** Never readable whole, nor anything above them: the app root and the system's own folders. */
  notAbove: string[];
  /** Roots of the other channels discovered (their packages or local folders). */
  otherChannels: string[];
}

const CHANNEL_PACKAGE = /^bot-channel-/;

/** Folders of the system a link must never make readable whole (their subfolders may be packages). */
export const SYSTEM_FOLDERS = ['/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib64', '/opt', '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/tmp', '/usr', '/usr/lib', '/usr/local', '/usr/local/lib', '/var'];

/** Why `real` (a link's real target) may not be read by the plugin; undefined when it may. */
export function linkTargetRefusal(real: string, policy: LinkPolicy): string | undefined {
  if (isWithin(real, policy.ownRoot)) return undefined;
  if (policy.hidden.some((hidden) => isWithin(real, hidden) || isWithin(hidden, real))) return "it leads to the host's own files";
  if (policy.notAbove.some((folder) => isWithin(folder, real))) return 'it leads to the app root or a system folder';
  const folder = policy.moduleFolders.find((modules) => isInside(real, modules));
  const workspace = policy.workspaces.find((root) => isWithin(real, root));
  if (folder === undefined && workspace === undefined) return 'it leads outside the folders Node resolves packages from';
  // Dot folders of node_modules are npm's and tools' own (.bin, .cache, .package-lock.json), not
  // packages; pnpm's store (.pnpm) is the one that holds packages Node resolves.
  if (folder !== undefined && hiddenFolderBetween(real, folder)) return 'it leads into a dot folder of node_modules';
  if (packageName(real) === undefined) return 'it leads to a folder that is not a package';
  if (policy.otherChannels.some((root) => isWithin(real, root) || isWithin(root, real))) return 'it leads to another channel';
  // A package inside another channel's (its dependency) is that channel's as much as its root.
  const packages = folder !== undefined ? foldersBetween(real, folder) : [...foldersBetween(real, workspace!), workspace!];
  if (packages.some((dir) => CHANNEL_PACKAGE.test(packageName(dir) ?? ''))) return 'it leads to another channel';
  return undefined;
}

const PACKAGE_STORES = new Set(['.pnpm']);

function hiddenFolderBetween(file: string, folder: string): boolean {
  return path
    .relative(folder, file)
    .split(path.sep)
    .some((part) => part.startsWith('.') && !PACKAGE_STORES.has(part));
}

/** `file` and its ancestors strictly inside `folder`. */
function foldersBetween(file: string, folder: string): string[] {
  const found: string[] = [];
  for (let dir = file; isInside(dir, folder); dir = path.dirname(dir)) found.push(dir);
  return found;
}

/** The app's workspaces as real paths (`sdk/*`, `plugins/*`...): packages Node reaches through the app's links. */
export function appWorkspaces(appRoot: string): string[] {
  let patterns: unknown;
  try {
    patterns = (JSON.parse(readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as { workspaces?: unknown }).workspaces;
  } catch {
    return [];
  }
  if (!Array.isArray(patterns)) return [];
  const folders = patterns.filter((pattern): pattern is string => typeof pattern === 'string').flatMap((pattern) => globSync(pattern, { cwd: appRoot, absolute: true }));
  return folders.flatMap((folder) => {
    try {
      return [realpathSync(folder)];
    } catch {
      return [];
    }
  });
}

/** `file` is `folder` or lies inside it. */
export function isWithin(file: string, folder: string): boolean {
  return file === folder || isInside(file, folder);
}

/** `file` lies strictly inside `folder`. */
export function isInside(file: string, folder: string): boolean {
  return file.startsWith(folder === path.sep ? folder : `${folder}${path.sep}`) && file !== folder;
}

function packageName(dir: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}
