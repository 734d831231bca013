import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { extractChannelPackage } from '../../../host/channels/packages/extract-channel-package.ts';
import { fetchChannelPackage } from '../../../host/channels/packages/fetch-channel-package.ts';
import { packFolder } from '../../support/build-tarball.ts';
import { startTestRegistry } from '../../support/test-registry.ts';

const SCRIPTED = new URL('../../fixtures/channel-packages/bot-channel-scripted/', import.meta.url).pathname;
const scriptedManifest = JSON.parse(await readFile(path.join(SCRIPTED, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** A marker file the fixture's scripts (and its channel file, when imported) append to. */
async function marker(t: TestContext): Promise<{ folder: string; file: string }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'scripts-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const file = path.join(folder, 'ran');
  const saved = process.env.CHANNEL_SCRIPT_MARKER;
  process.env.CHANNEL_SCRIPT_MARKER = file;
  t.after(() => {
    if (saved === undefined) delete process.env.CHANNEL_SCRIPT_MARKER;
    else process.env.CHANNEL_SCRIPT_MARKER = saved;
  });
  return { folder, file };
}

test('fetching and unpacking a package with install scripts and a binding.gyp runs none of them', async (t) => {
  const { folder, file } = await marker(t);
  const registry = await startTestRegistry();
  t.after(() => registry.close());
  registry.publish(scriptedManifest, await packFolder(SCRIPTED));
  const fetched = await fetchChannelPackage('bot-channel-scripted', { url: registry.url });
  await extractChannelPackage(fetched.tarball, path.join(folder, 'unpacked'));
  assert.equal(fetched.manifest.hasInstallScripts, true);
  assert.ok((await stat(path.join(folder, 'unpacked', 'binding.gyp'))).isFile());
  await assert.rejects(stat(file), { code: 'ENOENT' });
});

test("the fixture's install scripts do leave the mark when something runs them", async (t) => {
  const { folder, file } = await marker(t);
  await extractChannelPackage(await packFolder(SCRIPTED), path.join(folder, 'unpacked'));
  for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
    execFileSync('sh', ['-c', scriptedManifest.scripts[script]!], { cwd: path.join(folder, 'unpacked'), env: process.env });
  }
  assert.equal(await readFile(file, 'utf8'), 'preinstall\ninstall\npostinstall\nprepare\n');
});
