import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPluginManifest } from '../../../host/channels/discovery/check-plugin-manifest.ts';
import type { PluginManifest } from '../../../host/channels/discovery/read-plugin-manifest.ts';
import type { ChannelFile } from '../../../host/channels/discovery/scan-channel-files.ts';

const FILE: ChannelFile = { file: 'node_modules/bot-channel-acme/dist/index.channel.js', realFile: '/app/node_modules/bot-channel-acme/dist/index.channel.js', origin: 'package' };

function manifest(egress: unknown): PluginManifest {
  return { dir: '/app/node_modules/bot-channel-acme', name: 'bot-channel-acme', version: '1.0.0', exports: { '.': './a.js', './index.channel': './a.js' }, peerDependencies: {}, egress };
}

test('a manifest without bot.egress declares no host', () => {
  assert.deepEqual(checkPluginManifest(FILE, manifest(undefined), {}).egress, []);
});

test('declared hosts are kept lower-case, without a trailing dot, each once', () => {
  assert.deepEqual(checkPluginManifest(FILE, manifest(['API.telegram.org.', 'api.telegram.org', 'graph.facebook.com']), {}).egress, ['api.telegram.org', 'graph.facebook.com']);
});

test('a *.domain pattern is kept, lower-case, beside plain hosts', () => {
  assert.deepEqual(checkPluginManifest(FILE, manifest(['graph.facebook.com', '*.FBCDN.net.']), {}).egress, ['graph.facebook.com', '*.fbcdn.net']);
});

const invalid: [string, unknown][] = [
  ['a string', 'api.telegram.org'],
  ['an object', { hosts: ['api.telegram.org'] }],
  ['a bot field that is not an object', null],
  ['a URL', ['https://api.telegram.org']],
  ['a host with a port', ['api.telegram.org:443']],
  ['an IP address', ['10.0.0.1']],
  ['a wildcard over a public suffix', ['*.com']],
  ['a wildcard over a shared host where anybody has a name', ['*.github.io']],
  ['a wildcard inside a name', ['api.*.telegram.org']],
  ['a number', [443]],
];
for (const [what, egress] of invalid) {
  test(`a plugin whose bot.egress holds ${what} is rejected with BOT_ERR_PLUGIN_EGRESS_INVALID`, () => {
    assert.throws(() => checkPluginManifest(FILE, manifest(egress), {}), { code: 'BOT_ERR_PLUGIN_EGRESS_INVALID' });
  });
}
