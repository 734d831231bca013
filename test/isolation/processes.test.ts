/**
 * A plugin starts no process, loads no native code, opens no debugger, sets no V8 flag, and
 * runs no code outside its runner. A thread it starts itself is held by the same walls.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ADDON_FILE, assertRefused, assertServing, attack, BYSTANDER_PACKAGE, HOST_ROOT, HOSTILE_PACKAGE, processesWith, startChannel, waitFor } from './hostile-runner.ts';

const REFUSED = [
  ['runs a shell command (child_process.execSync)', { attack: 'exec', command: 'id' }, undefined],
  ['spawns the Node binary it can read (child_process.spawn)', { attack: 'spawn', command: process.execPath, args: ['-e', '0'] }],
  ["reaches the process binding behind child_process (process.binding('spawn_sync'))", { attack: 'process-binding', name: 'spawn_sync' }],
  ['loads a native addon (process.dlopen)', { attack: 'dlopen', path: ADDON_FILE }, undefined],
  ['starts WASI', { attack: 'wasi' }],
  ['opens the inspector (inspector.open)', { attack: 'inspector-open' }],
  ['debugs its own thread (new inspector.Session().connect())', { attack: 'inspector-session' }],
  ...(['import', 'named', 'require', 'builtin'] as const).map((via) => [`turns on V8's internal functions (v8.setFlagsFromString, by ${via})`, { attack: 'v8-flags', via }] as const),
] as const;

test('a plugin is refused processes, native code and debuggers', async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  assert.ok(existsSync(ADDON_FILE), `the addon to load is installed: ${ADDON_FILE}`);
  for (const [what, body, hole] of REFUSED) {
    await t.test(`a plugin that ${what} is refused`, { todo: hole }, async () => {
      assertRefused(await attack(hostile, body), what);
    });
  }
  await assertServing(bystander);
});

test("a plugin that connects an inspector session to its runner's main thread is refused, or ends only its own runner", async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  const outcome = await attack(hostile, { attack: 'inspector-main-thread' }).catch((error: { code?: string }) => error);
  if ('ok' in outcome) {
    assertRefused(outcome, 'connectToMainThread');
  } else {
    // Node 26 aborts on this call in a worker: the runner dies, never the host.
    assert.equal(outcome.code, 'BOT_ERR_PLUGIN_WORKER_CRASHED');
    await waitFor('the runner is running again', () => hostile.status().state === 'running');
    assert.equal((await attack(hostile, { attack: 'echo' })).ok, true);
  }
  await assertServing(bystander);
});

test('a process a plugin starts is refused, and none outlives its runner', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const marker = `bot-test-${randomUUID()}`;
  const outcome = await attack(hostile, { attack: 'spawn', command: process.execPath, args: ['-e', `setInterval(() => {}, 1000) // ${marker}`] });
  await hostile.close();
  await waitFor('no process the plugin started is left', () => processesWith(marker).length === 0);
  assertRefused(outcome, 'spawning a long-lived process');
});

test('a worker thread a plugin starts, even without the runner flags, reads no host file', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const file = path.join(HOST_ROOT, 'host/main.ts');
  const code = `const { parentPort } = require('node:worker_threads');
    try { parentPort.postMessage({ ok: true, value: require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8') }); }
    catch (error) { parentPort.postMessage({ ok: false, code: error.code }); }`;
  for (const execArgv of [undefined, []]) {
    const outcome = await attack(hostile, { attack: 'worker', code, ...(execArgv ? { execArgv } : {}) });
    // Refused to start the thread, or the thread refused the read.
    if (outcome.ok) assertRefused(outcome.value as never, `reading ${file} from a thread (execArgv ${JSON.stringify(execArgv)})`);
  }
});
