import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The packages the host itself provides to plugins, whose peer ranges are checked against it. */
export const HOST_PROVIDED_PACKAGES = ['@bot-ai/api', '@bot-ai/types', 'zod', '@nestjs/common'] as const;

/**
 * The versions of the provided packages as installed beside the host, read once from their
 * package.json files.
 */
export function readHostProvidedVersions(hostRoot: string): Record<string, string> {
  const require = createRequire(`${hostRoot}/package.json`);
  return Object.fromEntries(HOST_PROVIDED_PACKAGES.map((name) => [name, readVersion(require, name)]));
}

/** Walks up from the package's entry point: not every package exports its package.json. */
function readVersion(require: NodeJS.Require, name: string): string {
  for (let dir = path.dirname(require.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (manifest.name === name) return manifest.version;
  }
  throw new Error(`Cannot find the package.json of ${name}`);
}
