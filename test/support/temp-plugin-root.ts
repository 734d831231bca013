/** A throw-away app root for tests that install channel packages of their own. */
import { chmod, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

/**
 * A fresh root whose `node_modules/@bot-ai` links to this repo's SDK, readable by others as an
 * installed app is (a host running as root runs its plugins as nobody). The caller removes it.
 */
export async function createPluginRoot(prefix: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(root, 0o755);
  await mkdir(path.join(root, 'node_modules'));
  await symlink(path.join(REPO_NODE_MODULES, '@bot-ai'), path.join(root, 'node_modules', '@bot-ai'));
  return root;
}

/** Writes package `bot-channel-<name>` whose channel file (ESM JavaScript) is `source`. */
export async function writeChannelPackage(root: string, name: string, source: string, version = '1.0.0'): Promise<void> {
  const packageDir = path.join(root, 'node_modules', `bot-channel-${name}`);
  await mkdir(path.join(packageDir, 'dist'), { recursive: true });
  const manifest = {
    name: `bot-channel-${name}`,
    version,
    type: 'module',
    exports: { '.': './dist/index.channel.js', './index.channel': './dist/index.channel.js' },
    peerDependencies: { '@bot-ai/api': '>=3 <4', '@bot-ai/types': '>=3 <4' },
  };
  await writeFile(path.join(packageDir, 'package.json'), JSON.stringify(manifest, null, 2));
  await writeFile(path.join(packageDir, 'dist', 'index.channel.js'), source);
}
