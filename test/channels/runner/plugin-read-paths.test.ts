import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { linkTargetRefusal } from '../../../host/channels/runner/link-policy.ts';
import { pluginLinkPolicy, pluginReadPaths, pluginRoot, readablePaths } from '../../../host/channels/runner/plugin-read-paths.ts';

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

/**
 * An app as the host runs one: its `host/` source, its data directory, a channel package whose
 * own `node_modules` a plugin (or its install script) filled with links, another channel beside
 * it, and a pnpm-style store the links may rightly lead into.
 */
async function appWithLinks(t: { after(fn: () => Promise<void>): void }) {
  const root = await tree({
    'package.json': '{"name":"app","workspaces":["plugins/*"]}',
    'host/main.ts': '',
    'var/secrets.json': '{}',
    'node_modules/bot-channel-one/package.json': '{"name":"bot-channel-one"}',
    'node_modules/bot-channel-one/dist/index.channel.js': '',
    'node_modules/bot-channel-two/package.json': '{"name":"bot-channel-two"}',
    'node_modules/bot-channel-two/node_modules/dep/package.json': '{"name":"dep"}',
    'node_modules/.pnpm/left-pad@1.0.0/node_modules/left-pad/package.json': '{"name":"left-pad"}',
    'node_modules/.cache/tool/package.json': '{"name":"tool"}',
    'plugins/bot-channel-three/package.json': '{"name":"bot-channel-three"}',
    'plugins/util/package.json': '{"name":"util"}',
  });
  t.after(() => rm(root, { recursive: true, force: true }));
  const own = path.join(root, 'node_modules/bot-channel-one');
  await mkdir(path.join(own, 'node_modules'));
  const links: Record<string, string> = {
    'evil-etc': '/etc',
    'evil-host': path.join(root, 'host'),
    'evil-var': path.join(root, 'var'),
    'evil-app': root,
    'innocent-sample': '../../bot-channel-two',
    'innocent-dep': '../../bot-channel-two/node_modules/dep',
    'innocent-workspace': '../../../plugins/bot-channel-three',
    'left-pad': '../../.pnpm/left-pad@1.0.0/node_modules/left-pad',
    util: '../../../plugins/util',
  };
  for (const [name, target] of Object.entries(links)) await symlink(target, path.join(own, 'node_modules', name));
  return { root, file: path.join(own, 'dist/index.channel.js') };
}

test("links in a package's own node_modules bind neither a system folder, the host's files nor another channel", async (t) => {
  const { root, file } = await appWithLinks(t);
  const readable = readablePaths(pluginReadPaths(file, [], { hostRoot: root, privatePaths: [path.join(root, 'var')] }));
  const refused = ['/etc', path.join(root, 'host'), path.join(root, 'var'), path.join(root, 'node_modules/bot-channel-two'), path.join(root, 'plugins/bot-channel-three')];
  for (const target of refused) {
    assert.ok(!readable.some((entry) => entry === target || entry.startsWith(`${target}/`)), `${target} is readable: ${readable.join(', ')}`);
  }
  assert.ok(!readable.includes(root), 'the app root is readable');
  for (const name of ['evil-etc', 'evil-host', 'evil-var', 'evil-app', 'innocent-sample', 'innocent-dep', 'innocent-workspace']) {
    assert.ok(!readable.includes(path.join(root, 'node_modules/bot-channel-one/node_modules', name)), `the link ${name} is bound`);
  }
  // What Node rightly resolves through links: a package in a store, a workspace that is no channel.
  assert.ok(readable.includes(path.join(root, 'node_modules/.pnpm/left-pad@1.0.0/node_modules/left-pad')));
  assert.ok(readable.includes(path.join(root, 'plugins/util')));
});

test('the link policy refuses targets by their real path, whatever the link is named', async (t) => {
  const { root, file } = await appWithLinks(t);
  const policy = pluginLinkPolicy(pluginRoot(file), [], { hostRoot: root, privatePaths: [path.join(root, 'var')] });
  const cases: Array<[string, RegExp | undefined]> = [
    ['/etc', /system folder|outside/],
    ['/', /./],
    [path.join(root, 'host'), /host's own files/],
    [path.join(root, 'var'), /host's own files/],
    [root, /host's own files|app root/],
    [path.join(root, 'node_modules/bot-channel-two'), /another channel/],
    [path.join(root, 'node_modules/bot-channel-two/node_modules/dep'), /another channel/],
    [path.join(root, 'node_modules/.pnpm'), /not a package/],
    [path.join(root, 'node_modules/.cache/tool'), /dot folder/],
    [path.join(root, 'node_modules/.pnpm/left-pad@1.0.0/node_modules/left-pad'), undefined],
    [path.join(root, 'node_modules/bot-channel-one/dist'), undefined],
  ];
  for (const [target, expected] of cases) {
    const refusal = linkTargetRefusal(target, policy);
    if (expected === undefined) assert.equal(refusal, undefined, target);
    else assert.match(refusal ?? '(allowed)', expected, target);
  }
});
