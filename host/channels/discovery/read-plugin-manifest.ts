import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The fields of a package.json that discovery checks. */
export interface PluginManifest {
  /** Folder holding the package.json. */
  dir: string;
  name: string | undefined;
  version: string | undefined;
  exports: unknown;
  peerDependencies: Record<string, string>;
  /** `bot.egress` as written (the hosts the plugin may reach); checked by checkEgressHosts. */
  egress: unknown;
}

/**
 * The nearest package.json above a channel file, not climbing past the app root (a local
 * channel's manifest is the app's own).
 */
export async function readPluginManifest(realFile: string, stopAt: string): Promise<PluginManifest | undefined> {
  const root = path.parse(realFile).root;
  for (let dir = path.dirname(realFile); ; dir = path.dirname(dir)) {
    const manifest = await readManifestIn(dir);
    if (manifest) return manifest;
    if (dir === stopAt || dir === root) return undefined;
  }
}

async function readManifestIn(dir: string): Promise<PluginManifest | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, 'package.json'), 'utf8');
  } catch {
    return undefined;
  }
  const json = JSON.parse(text) as Record<string, unknown>;
  return {
    dir,
    name: typeof json.name === 'string' ? json.name : undefined,
    version: typeof json.version === 'string' ? json.version : undefined,
    exports: json.exports,
    peerDependencies: isStringRecord(json.peerDependencies) ? json.peerDependencies : {},
    // A `bot` that is not an object declares nothing readable: null, which the check refuses.
    egress: isRecord(json.bot) ? json.bot.egress : json.bot === undefined ? undefined : null,
  };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && Object.values(value).every((item) => typeof item === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
