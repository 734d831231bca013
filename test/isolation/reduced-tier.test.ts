/**
 * Where bubblewrap cannot run: the runner is a separate process with Node's
 * permission model and, as the host is root here, a uid/gid of its own. Diagnostics say
 * `reduced` and why; BOT_ISOLATION=strict refuses to start the channel instead. The permission model must still
 * refuse reads outside the package, the network and child processes.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sandboxLoader } from '../../host/channels/load-channel-in-sandbox.ts';
import { RUNNER_ID_COUNT, RUNNER_UID_BASE_DEFAULT } from '../../host/channels/runner/runner-identity.ts';
import { rejectsWithCode } from '../channels/builtin-pool/fixture-pool.ts';
import {
  assertRefused,
  assertServing,
  attack,
  BYSTANDER_PACKAGE,
  BYSTANDER_SECRET_FILE,
  channelSettings,
  countingListener,
  dataDirWithSecret,
  HOST_ROOT,
  HOSTILE_PACKAGE,
  isAlive,
  markHostEnvironment,
  startChannel,
  type StartOptions,
} from './hostile-runner.ts';

const REDUCED: StartOptions = { bwrapPath: '/nonexistent', mode: 'auto' };
const MARKER = markHostEnvironment();

test('without bubblewrap a channel runs in the reduced tier, and its status says why', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  const status = hostile.status();
  assert.equal(status.isolation, 'reduced');
  assert.match(status.isolationReason ?? '', /bubblewrap/);
  assert.equal(status.state, 'running');
});

test('in strict mode a channel without bubblewrap does not start: BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE', async () => {
  const file = `${HOSTILE_PACKAGE}/dist/index.channel.js`;
  const load = sandboxLoader(channelSettings({ bwrapPath: '/nonexistent', mode: 'strict' }));
  const error = await rejectsWithCode(load({ file, realFile: file, origin: 'package' }), 'BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE');
  assert.match(error.message, /bubblewrap/);
});

test('in the reduced tier a plugin never runs as root, with an empty environment; under a root host, as a uid and gid of its own', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  const outcome = await attack(hostile, { attack: 'identity' });
  const uid = outcome.ok ? (outcome.value as { uid: number }).uid : -1;
  assert.notEqual(uid, 0);
  // An ordinary user cannot hand out other uids: its runners run as itself.
  if (process.getuid?.() === 0) assert.ok(uid >= RUNNER_UID_BASE_DEFAULT && uid < RUNNER_UID_BASE_DEFAULT + RUNNER_ID_COUNT, `uid ${uid} is of the runners' range`);
  else assert.equal(uid, process.getuid?.());
  assert.deepEqual(outcome, { ok: true, value: { uid, gid: uid, euid: uid, egid: uid, groups: [uid] } });
  assert.deepEqual(await attack(hostile, { attack: 'env' }), { ok: true, value: {} });
});

test('in the reduced tier a plugin reads no file outside its package and the modules it resolves', async (t) => {
  const data = await dataDirWithSecret(t, MARKER);
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  assert.equal((await attack(hostile, { attack: 'read-file', path: `${HOSTILE_PACKAGE}/package.json` })).ok, true, 'its own package is readable');
  const targets = [
    ["the host's source", path.join(HOST_ROOT, 'host/main.ts')],
    ["another plugin's file", BYSTANDER_SECRET_FILE],
    ['/etc/passwd', '/etc/passwd'],
    ["the data directory's secrets (mode 600)", path.join(data, 'secrets.json'), undefined],
    ["the host's environment", `/proc/${process.pid}/environ`, undefined],
  ] as const;
  for (const [what, file, hole] of targets) {
    await t.test(what, { todo: hole }, async () => {
      const outcome = await attack(hostile, { attack: 'read-file', path: file });
      assert.ok(!JSON.stringify(outcome).includes(MARKER), `${file} leaked the host's secret`);
      assertRefused(outcome, `reading ${file}`);
    });
  }
  await t.test("the refusal is the permission model's, not only the file's mode", async () => {
    const outcome = await attack(hostile, { attack: 'read-file', path: path.join(data, 'secrets.json') });
    assert.equal(assertRefused(outcome, 'reading the secrets'), 'ERR_ACCESS_DENIED');
  });
});

test('in the reduced tier a plugin opens no network connection', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  const server = await countingListener(t, { port: 0, host: '127.0.0.1' });
  const { port } = server;
  const connected = await attack(hostile, { attack: 'net-connect', host: '127.0.0.1', port });
  const fetched = await attack(hostile, { attack: 'fetch', url: `http://127.0.0.1:${port}/` });
  const database = await attack(hostile, { attack: 'postgres', url: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  assert.equal(server.connections(), 0, 'the listener got a connection');
  assertRefused(connected, 'net.connect');
  assertRefused(fetched, 'fetch');
  assertRefused(database, 'logging in to PostgreSQL');
});

test('in the reduced tier a plugin starts no process', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  assertRefused(await attack(hostile, { attack: 'exec', command: 'id' }), 'execSync');
  assertRefused(await attack(hostile, { attack: 'spawn', command: process.execPath, args: ['-e', '0'] }), 'spawn');
});

test('in the reduced tier a plugin writes no file', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  const name = `planted-${randomUUID()}`;
  const targets = [
    ['its own package', path.join(HOSTILE_PACKAGE, name), undefined],
    ["the host's source", path.join(HOST_ROOT, 'host', name), undefined],
    ["the host's /tmp", path.join('/tmp', name)],
  ] as const;
  t.after(() => targets.forEach(([, file]) => rmSync(file, { force: true })));
  for (const [what, file, hole] of targets) {
    await t.test(what, { todo: hole }, async () => {
      assertRefused(await attack(hostile, { attack: 'write-file', path: file, content: 'planted' }), `writing ${file}`);
      assert.equal(existsSync(file), false);
    });
  }
});

/**
 * Without bubblewrap there is no PID namespace: only a uid of the runner's own keeps its signals
 * in, and only a root host can hand one out. An ordinary user's reduced tier cannot hold this
 * (docs/plugin-isolation.md says so; BOT_ISOLATION=strict refuses that tier).
 */
const SIGNALS_HELD = process.getuid?.() === 0 ? false : 'an ordinary user\'s runners share its uid in the reduced tier: nothing there keeps their signals in';

test('in the reduced tier a plugin signals neither the host nor a process of the machine', { skip: SIGNALS_HELD }, async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  const victim = spawn('sleep', ['60'], { stdio: 'ignore' });
  t.after(() => victim.kill('SIGKILL'));
  assertRefused(await attack(hostile, { attack: 'kill', pid: process.pid, signal: 'SIGKILL' }), 'killing the host');
  assertRefused(await attack(hostile, { attack: 'kill', pid: victim.pid, signal: 'SIGKILL' }), 'killing the victim');
  assert.ok(isAlive(victim.pid!));
});

test("in the reduced tier a plugin cannot kill another channel's runner", { skip: SIGNALS_HELD }, async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE, REDUCED), startChannel(t, BYSTANDER_PACKAGE, REDUCED)]);
  const outcome = await attack(hostile, { attack: 'kill', pid: bystander.status().pid, signal: 'SIGKILL' });
  assertRefused(outcome, "killing the other channel's runner");
  assert.equal(bystander.status().restarts, 0);
  await assertServing(bystander);
});

test('in the reduced tier a thread a plugin starts without the runner flags is still held by the permission model', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE, REDUCED);
  const file = path.join(HOST_ROOT, 'host/main.ts');
  const code = `const { parentPort } = require('node:worker_threads');
    try { parentPort.postMessage({ ok: true, value: require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8').slice(0, 40) }); }
    catch (error) { parentPort.postMessage({ ok: false, code: error.code }); }`;
  const outcome = await attack(hostile, { attack: 'worker', code, execArgv: [] });
  if (outcome.ok) assertRefused(outcome.value as never, `reading ${file} from a thread started with execArgv: []`);
});
