/**
 * An app root of its own in the temporary folder, laid out as an installed host's: channel
 * packages copied under `node_modules`, the SDK linked in as npm links a workspace. Tests then add
 * the links a hostile package (or its install script) would hold. Readable by every uid: a root
 * host's runners run as uids of their own.
 */
import { chmod, cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HOST_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

export interface LinkedApp {
  root: string;
  /** Where a package copied in lives: `<root>/node_modules/<name>`. */
  packageDir(name: string): string;
}

/** `packages`: package name → folder to copy in. Removed after the test. */
export async function linkedApp(t: { after(fn: () => Promise<void>): void }, packages: Record<string, string>): Promise<LinkedApp> {
  const root = await mkdtemp(path.join(tmpdir(), 'bot-linked-app-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await chmod(root, 0o755);
  await writeFile(path.join(root, 'package.json'), '{"name":"linked-app","private":true,"type":"module"}\n');
  await mkdir(path.join(root, 'node_modules/@bot-ai'), { recursive: true });
  for (const sdk of ['api', 'types']) await symlink(path.join(HOST_ROOT, 'sdk', sdk), path.join(root, 'node_modules/@bot-ai', sdk));
  const packageDir = (name: string) => path.join(root, 'node_modules', name);
  for (const [name, from] of Object.entries(packages)) await cp(from, packageDir(name), { recursive: true });
  return { root, packageDir };
}
