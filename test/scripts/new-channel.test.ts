import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import type { ChannelSource } from '@bot-ai/api';
import type { DiscoveryResult } from '../../host/channels/discovery/discovered-channel.ts';
import type { ChannelCalls } from '../../host/channels/calls/channel-calls.ts';
import { afterSuite, afterTest, createTempAppRoot, discoverIn, HOST_ROOT, runNewChannel, signedRequest, snapshotFiles, type ScriptRun } from './temp-app-root.ts';
import { checkPackageInProcess, formatCheckReport } from '@bot-ai/api/check';

const SECRET = 'webhook-s3cret';
const SOURCE: ChannelSource = { id: 'source-1', ref: 'ref-1', settings: { webhook_secret: SECRET, api_key: 'key-1' }, active: true };
const BODY = {
  events: [
    { id: 'evt-1', timestamp: 1763800000000, sender: { id: 'user-1', first_name: 'Ada' }, text: 'hello', extra: true },
    { id: 'evt-2', sender: { id: 'user-1' }, delivered: true },
  ],
};

function registered(results: DiscoveryResult<ChannelCalls>[], file: string): DiscoveryResult<ChannelCalls> & { loaded: NonNullable<DiscoveryResult<ChannelCalls>['loaded']> } {
  const result = results.find((entry) => entry.file === file);
  assert.ok(result, `discovery did not find ${file}: ${JSON.stringify(results.map((entry) => entry.file))}`);
  assert.equal(result.status, 'registered', `${result.code}: ${result.message}`);
  return result as DiscoveryResult<ChannelCalls> & { loaded: NonNullable<DiscoveryResult<ChannelCalls>['loaded']> };
}

function assertSucceeded(run: ScriptRun): void {
  assert.equal(run.code, 0, `exit ${run.code}\n${run.stdout}\n${run.stderr}`);
}

describe('npm run new:channel -- <name>: a local channel', () => {
  let appRoot: string;
  let run: ScriptRun;
  let results: DiscoveryResult<ChannelCalls>[];
  const cleanup = afterSuite();
  before(async () => {
    appRoot = await createTempAppRoot(cleanup);
    run = await runNewChannel('acme-chat', '--app-root', appRoot);
    assertSucceeded(run);
    results = await discoverIn(appRoot, cleanup);
  });

  test('writes the source under src/extensions/channels/<name>/ and prints where the build lands and how to check it', async () => {
    assert.ok(existsSync(path.join(appRoot, 'src/extensions/channels/acme-chat/index.channel.ts')));
    assert.match(run.stdout, /dist\/extensions\/channels\/acme-chat\/index\.channel\.js/);
    assert.match(run.stdout, /\/api\/channel\/diagnostics/);
    assert.match(run.stdout, /tsc(\.js)? -b .*tsconfig\.channels\.json/);
    const manifest = JSON.parse(await readFile(path.join(appRoot, 'package.json'), 'utf8')) as { type: string };
    assert.equal(manifest.type, 'module', 'an app root without package.json gets one, so the ES module output loads');
  });

  test('is built and registered by discovery under its name, as a local channel', () => {
    const result = registered(results, 'dist/extensions/channels/acme-chat/index.channel.js');
    assert.equal(result.name, 'acme-chat');
    assert.equal(result.origin, 'local');
    assert.equal(result.loaded.description.kind, 'http');
  });

  test('publishes its secrets with the password widget', () => {
    const schema = registered(results, 'dist/extensions/channels/acme-chat/index.channel.js').loaded.description.settingsJsonSchema;
    const properties = (schema as { properties: Record<string, Record<string, unknown>> }).properties;
    assert.equal(properties.webhook_secret?.['ui:widget'], 'password');
    assert.equal(properties.api_key?.['ui:widget'], 'password');
  });

  test('decodes a signed request in its sandbox into a text message per event with text', async () => {
    const { sandbox } = registered(results, 'dist/extensions/channels/acme-chat/index.channel.js').loaded;
    const result = await sandbox.receiveWebhook(signedRequest(BODY, SECRET), SOURCE);
    assert.equal(result.outcome, 'accepted', JSON.stringify(result));
    assert.deepEqual(
      result.outcome === 'accepted' && result.events.map(({ kind, channelName, eventId, senderForeignId, occurredAt, message }) => ({ kind, channelName, eventId, senderForeignId, occurredAt, message })),
      [{ kind: 'message', channelName: 'acme-chat', eventId: 'evt-1', senderForeignId: 'user-1', occurredAt: '2025-11-22T08:26:40.000Z', message: { type: 'text', data: { text: 'hello' } } }],
    );
  });

  test('rejects a request whose signature was made with another secret (401) and a body in another format (400)', async () => {
    const { sandbox } = registered(results, 'dist/extensions/channels/acme-chat/index.channel.js').loaded;
    const forged = await sandbox.receiveWebhook(signedRequest(BODY, 'another-secret'), SOURCE);
    assert.deepEqual(forged.outcome === 'rejected' && [forged.status, forged.reason.code], [401, 'BOT_ERR_CHANNEL_SIGNATURE_REJECTED']);
    const malformed = await sandbox.receiveWebhook(signedRequest({ events: 'nope' }, SECRET), SOURCE);
    assert.equal(malformed.outcome === 'invalid' && malformed.status, 400);
  });

  test('sends a text reply with a POST to {api_url}/messages and returns the platform id', async (t) => {
    const received: { url?: string; authorization?: string; body?: unknown }[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk));
      req.on('end', () => {
        received.push({ url: req.url, authorization: req.headers.authorization, body: JSON.parse(text) });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'mid-1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const source = { ...SOURCE, settings: { ...SOURCE.settings, api_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` } };
    const { sandbox } = registered(results, 'dist/extensions/channels/acme-chat/index.channel.js').loaded;
    const decoded = await sandbox.receiveWebhook(signedRequest(BODY, SECRET), source);
    const event = decoded.outcome === 'accepted' ? decoded.events[0]! : assert.fail('not decoded');
    const sent = await sandbox.send(event, source, { type: 'text', data: { text: 'Hi Ada' } }, { idempotencyKey: 'k-1' });
    assert.deepEqual(sent, { mid: 'mid-1' });
    assert.deepEqual(received, [{ url: '/v1/messages', authorization: 'Bearer key-1', body: { recipient: { id: 'user-1' }, message: { text: 'Hi Ada' } } }]);
  });

  test('builds a subscriber the host accepts from a decoded event', async () => {
    const { sandbox } = registered(results, 'dist/extensions/channels/acme-chat/index.channel.js').loaded;
    const decoded = await sandbox.receiveWebhook(signedRequest(BODY, SECRET), SOURCE);
    const event = decoded.outcome === 'accepted' ? decoded.events[0]! : assert.fail('not decoded');
    const subscriber = await sandbox.subscriberData(event, SOURCE);
    assert.deepEqual([subscriber.foreignId, subscriber.firstName, subscriber.channel, subscriber.source], ['user-1', 'Ada', { name: 'acme-chat' }, 'source-1']);
  });
});

describe('npm run new:channel -- <name> --package, beside a local channel', () => {
  let appRoot: string;
  let results: DiscoveryResult<ChannelCalls>[];
  const cleanup = afterSuite();
  before(async () => {
    appRoot = await createTempAppRoot(cleanup);
    assertSucceeded(await runNewChannel('acme', '--app-root', appRoot));
    assertSucceeded(await runNewChannel('shop', '--package', '--app-root', appRoot));
    results = await discoverIn(appRoot, cleanup);
  });

  test('writes plugins/bot-channel-<name> with a manifest, tsconfig, README and sources, linked into node_modules', async () => {
    for (const file of ['package.json', 'tsconfig.json', 'README.md', 'src/index.ts', 'src/index.channel.ts']) {
      assert.ok(existsSync(path.join(appRoot, 'plugins/bot-channel-shop', file)), file);
    }
    const link = path.join(appRoot, 'node_modules/bot-channel-shop');
    assert.ok((await lstat(link)).isSymbolicLink());
    assert.equal(await realpath(link), await realpath(path.join(appRoot, 'plugins/bot-channel-shop')));
    assert.match(await readFile(path.join(appRoot, 'plugins/bot-channel-shop/README.md'), 'utf8'), /X-Signature/);
  });

  test('registers the package channel with its name and package, and the local one beside it', () => {
    const result = registered(results, 'node_modules/bot-channel-shop/dist/index.channel.js');
    assert.deepEqual([result.name, result.origin, result.package], ['shop', 'package', { name: 'bot-channel-shop', version: '0.1.0' }]);
    assert.equal(registered(results, 'dist/extensions/channels/acme/index.channel.js').name, 'acme');
  });

  test('decodes a signed request in the package channel sandbox', async () => {
    const { sandbox } = registered(results, 'node_modules/bot-channel-shop/dist/index.channel.js').loaded;
    const result = await sandbox.receiveWebhook(signedRequest(BODY, SECRET), SOURCE);
    assert.deepEqual(result.outcome === 'accepted' && result.events.map((event) => [event.channelName, event.eventId]), [['shop', 'evt-1']]);
  });

  test('the package passes the author kit as generated, with its recorded deliveries', async () => {
    const report = await checkPackageInProcess(path.join(appRoot, 'plugins/bot-channel-shop'));
    assert.equal(report.ok, true, formatCheckReport(report));
    assert.ok(report.results.some((result) => result.name === 'receipt-is-noise.json: An event without text (a delivery receipt) is noise'));
  });

  test('tsconfig.channels.json rebuilds both channels from clean', async () => {
    await rm(path.join(appRoot, 'dist'), { recursive: true });
    await rm(path.join(appRoot, 'plugins/bot-channel-shop/dist'), { recursive: true });
    await rm(path.join(appRoot, 'plugins/bot-channel-shop/tsconfig.tsbuildinfo'));
    const tsc = path.join(HOST_ROOT, 'node_modules/typescript/bin/tsc');
    await promisify(execFile)(process.execPath, [tsc, '-b', path.join(appRoot, 'tsconfig.channels.json')]);
    assert.ok(existsSync(path.join(appRoot, 'dist/extensions/channels/acme/index.channel.js')));
    assert.ok(existsSync(path.join(appRoot, 'plugins/bot-channel-shop/dist/index.channel.js')));
  });
});

describe('npm run new:channel refuses, with exit code 2 and nothing written', () => {
  const badNames = ['Acme', '1st', 'a--b', '-acme', 'acme-', 'a_b', 'acme.chat', 'a'.repeat(51)];
  for (const name of badNames) {
    test(`the name "${name.length > 20 ? `${name.slice(0, 8)}… (${name.length} characters)` : name}"`, async (t) => {
      const appRoot = await createTempAppRoot(afterTest(t));
      const run = await runNewChannel('--app-root', appRoot, '--', name);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /Invalid channel name/);
      assert.deepEqual(await snapshotFiles(appRoot), {});
    });
  }

  const existing: [string, string, string[]][] = [
    ['a local channel of that name', 'src/extensions/channels/acme/index.channel.ts', ['acme']],
    ['a plugin folder of that name', 'plugins/bot-channel-acme/package.json', ['acme', '--package']],
    ['an installed package of that name, asked for locally', 'node_modules/bot-channel-acme/package.json', ['acme']],
  ];
  for (const [what, file, args] of existing) {
    test(`a name taken by ${what}`, async (t) => {
      const appRoot = await createTempAppRoot(afterTest(t));
      await mkdir(path.dirname(path.join(appRoot, file)), { recursive: true });
      await writeFile(path.join(appRoot, file), 'kept as it is\n');
      const before = await snapshotFiles(appRoot);
      const run = await runNewChannel(...args, '--app-root', appRoot);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /already exists/);
      assert.deepEqual(await snapshotFiles(appRoot), before);
    });
  }

  test('a local channel in an app root whose package.json is not an ES module package', async (t) => {
    const appRoot = await createTempAppRoot(afterTest(t));
    await writeFile(path.join(appRoot, 'package.json'), '{ "name": "app", "type": "commonjs" }\n');
    const run = await runNewChannel('acme', '--app-root', appRoot);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /"type": "module"/);
    assert.deepEqual(Object.keys(await snapshotFiles(appRoot)), ['package.json']);
  });
});
