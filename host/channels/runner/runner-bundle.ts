/**
 * The runner's code as plain JavaScript: its entry bundled with the plugin-side modules it imports
 * (packages stay imports). Node can run the TypeScript sources itself, but its type stripper
 * costs the runner about 17 MB and some start time.
 *
 * Built at the host's first runner start into a folder named after a hash of the sources, so an
 * edited source never runs stale and hosts sharing the tree build it once (to a temporary folder
 * renamed into place). When esbuild fails, the runner runs the sources as they are.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface RunnerBundle {
  /** The runner's entry file. */
  entry: string;
  /** What the runner must be able to read of the host's own code. */
  readable: string[];
}

const RUNNER_DIR = path.dirname(fileURLToPath(import.meta.url));
/** The code that runs next to the plugin, which the runner imports. */
const PLUGIN_SIDE_DIR = path.join(RUNNER_DIR, '../plugin-side');
const BUNDLES_DIR = path.join(RUNNER_DIR, 'dist');
/** The bundle folder's own manifest: all Node needs to know of it. */
const BUNDLE_MANIFEST = { private: true, type: 'module' };

/** The sources, run by Node's type stripping: the fallback. */
export const SOURCE_BUNDLE: RunnerBundle = { entry: path.join(RUNNER_DIR, 'runner-main.ts'), readable: [PLUGIN_SIDE_DIR, RUNNER_DIR] };

let prepared: Promise<RunnerBundle> | undefined;

/** The bundle of the current sources, built once per process (and once per source change). */
export function runnerBundle(onFallback: (error: unknown) => void): Promise<RunnerBundle> {
  prepared ??= buildBundle().catch((error: unknown) => {
    onFallback(error);
    return SOURCE_BUNDLE;
  });
  return prepared;
}

async function buildBundle(): Promise<RunnerBundle> {
  const dir = path.join(BUNDLES_DIR, await sourcesHash());
  const bundle = { entry: path.join(dir, 'runner-main.js'), readable: [dir] };
  if (existsSync(bundle.entry)) return bundle;
  const next = `${dir}.next-${randomUUID()}`;
  await build({
    entryPoints: { 'runner-main': path.join(RUNNER_DIR, 'runner-main.ts') },
    outdir: next,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node26',
    logLevel: 'silent',
  });
  // Its own package.json: the bundle is an ES module without the app's manifest, which the
  // runner then has no need to read (it would show the app's name, scripts and layout).
  await writeFile(path.join(next, 'package.json'), `${JSON.stringify(BUNDLE_MANIFEST)}\n`);
  // Readable by the runner's unprivileged uid, whatever the umask.
  await chmod(next, 0o755);
  for (const file of await readdir(next)) await chmod(path.join(next, file), 0o644);
  await rename(next, dir).catch(async (error: NodeJS.ErrnoException) => {
    await rm(next, { recursive: true, force: true });
    if (!existsSync(bundle.entry)) throw error; // another host renamed the same build into place first
  });
  return bundle;
}

async function sourcesHash(): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(BUNDLE_MANIFEST));
  for (const dir of [PLUGIN_SIDE_DIR, RUNNER_DIR]) {
    for (const file of (await readdir(dir)).filter((name) => name.endsWith('.ts')).sort()) {
      hash.update(`${dir}/${file}\0`).update(await readFile(path.join(dir, file))).update('\0');
    }
  }
  return hash.digest('hex').slice(0, 16);
}
