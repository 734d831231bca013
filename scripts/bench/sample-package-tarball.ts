/**
 * The sample channel package (plugins/bot-channel-sample) as a registry would serve it, at any
 * version: the files its package.json publishes (`files`: the built `dist/` and the README) and
 * that package.json with the version changed, packed as `npm pack` lays them out.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packFolder } from '../../test/support/build-tarball.ts';
import type { PackedChannel } from '../../test/support/channel-package-tarballs.ts';

const SAMPLE_DIR = fileURLToPath(new URL('../../plugins/bot-channel-sample/', import.meta.url));

/** `bot-channel-sample` at `version`, packed from its built files. */
export async function packSampleAt(version: string): Promise<PackedChannel> {
  if (!existsSync(path.join(SAMPLE_DIR, 'dist', 'index.channel.js'))) throw new Error('plugins/bot-channel-sample is not built: run `npm run build` first');
  const manifest: Record<string, unknown> = { ...(JSON.parse(await readFile(path.join(SAMPLE_DIR, 'package.json'), 'utf8')) as object), version };
  const folder = await mkdtemp(path.join(tmpdir(), 'bot-sample-pack-'));
  try {
    for (const published of manifest.files as string[]) await cp(path.join(SAMPLE_DIR, published), path.join(folder, published), { recursive: true });
    await writeFile(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
    return { manifest, tarball: await packFolder(folder) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
