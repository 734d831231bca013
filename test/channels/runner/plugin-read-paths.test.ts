import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pluginReadPaths, pluginRoot, readablePaths } from '../../../host/channels/runner/plugin-read-paths.ts';

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'bot-read-paths-'));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  return root;
}

test("an installed package's root is the package, whatever package.json its build folders hold", async (t) => {
  const root = await tree({
    'node_modules/bot-channel-dual/package.json': '{"name":"bot-channel-dual"}',
    'node_modules/bot-channel-dual/dist/esm/package.json': '{"type":"module"}',
    'node_modules/bot-channel-dual/dist/esm/index.channel.js': '',
  });
  t.after(() => rm(root, { recursive: true, force: true }));
  assert.equal(pluginRoot(path.join(root, 'node_modules/bot-channel-dual/dist/esm/index.channel.js')), path.join(root, 'node_modules/bot-channel-dual'));
});

test('the runner of one package reads neither another channel package nor the app beyond its modules', async (t) => {
  const root = await tree({
    'package.json': '{"name":"app"}',
    'secrets.json': '{}',
    'node_modules/bot-channel-one/package.json': '{"name":"bot-channel-one"}',
    'node_modules/bot-channel-one/dist/index.channel.js': '',
    'node_modules/bot-channel-two/package.json': '{"name":"bot-channel-two"}',
    'node_modules/bot-channel-two/dist/index.channel.js': '',
    'node_modules/left-pad/package.json': '{"name":"left-pad"}',
  });
  t.after(() => rm(root, { recursive: true, force: true }));
  const readable = readablePaths(pluginReadPaths(path.join(root, 'node_modules/bot-channel-one/dist/index.channel.js'), []));
  assert.ok(readable.includes(path.join(root, 'node_modules/bot-channel-one')));
  assert.ok(readable.includes(path.join(root, 'node_modules/left-pad')));
  assert.ok(!readable.some((file) => file.includes('bot-channel-two')), 'another channel package');
  assert.ok(!readable.some((file) => file === root || file.endsWith('secrets.json')), 'the app root itself');
});

test('local channels sharing a folder cannot read each other; one in a folder of its own reads that folder', async (t) => {
  const root = await tree({
    'package.json': '{"name":"app"}',
    'dist/extensions/channels/a.channel.js': '',
    'dist/extensions/channels/b.channel.js': '',
    'dist/extensions/channels/solo/index.channel.js': '',
    'dist/extensions/channels/solo/helper.js': '',
  });
  t.after(() => rm(root, { recursive: true, force: true }));
  const shared = readablePaths(pluginReadPaths(path.join(root, 'dist/extensions/channels/a.channel.js'), []));
  assert.ok(shared.includes(path.join(root, 'dist/extensions/channels/a.channel.js')));
  assert.ok(!shared.some((file) => file === path.join(root, 'dist/extensions/channels') || file.endsWith('b.channel.js')));
  assert.equal(pluginRoot(path.join(root, 'dist/extensions/channels/solo/index.channel.js')), path.join(root, 'dist/extensions/channels/solo'));
});
