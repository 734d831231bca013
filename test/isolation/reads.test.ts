/**
 * A sandboxed plugin reads only its own package and the modules it
 * resolves — no host source, no data directory, no other plugin, no system secret, and no
 * process information of the host (its environment above all).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { runtimeFiles } from '../../host/channels/runner/runtime-files.ts';
import {
  assertRefused,
  assertServing,
  attack,
  BYSTANDER_PACKAGE,
  BYSTANDER_SECRET,
  BYSTANDER_SECRET_FILE,
  dataDirWithSecret,
  HOST_ROOT,
  HOSTILE_PACKAGE,
  markHostEnvironment,
  startChannel,
} from './hostile-runner.ts';

const MARKER = markHostEnvironment();

const READS = ['read-file', 'read-file-url', 'read-file-async', 'read-file-buffer-path'] as const;

test('a plugin reads no file outside its package and the modules it resolves', async (t) => {
  const data = await dataDirWithSecret(t, MARKER);
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  // The control: the attack works where reading is allowed.
  const own = await attack(hostile, { attack: 'read-file', path: `${HOSTILE_PACKAGE}/package.json` });
  assert.equal(own.ok, true, JSON.stringify(own));

  const targets = [
    ["the host's source", path.join(HOST_ROOT, 'host/main.ts')],
    // The runner's bundle has a manifest of its own: the app's (name, scripts, layout) stays hidden.
    ["the app's package.json", path.join(HOST_ROOT, 'package.json')],
    ["the host's source, by a path climbing out of a readable folder", path.join(HOST_ROOT, 'node_modules') + '/../host/main.ts'],
    ["the data directory's secrets", path.join(data, 'secrets.json')],
    ["another plugin's file", BYSTANDER_SECRET_FILE],
    ['/etc/shadow', '/etc/shadow'],
    ['/etc/passwd', '/etc/passwd'],
  ] as const;
  for (const [what, file] of targets) {
    for (const read of READS) {
      await t.test(`${what} (${read})`, async () => {
        const outcome = await attack(hostile, { attack: read, path: file });
        assertRefused(outcome, `reading ${file}`);
        assert.ok(!JSON.stringify(outcome).includes(MARKER) && !JSON.stringify(outcome).includes(BYSTANDER_SECRET));
      });
    }
  }
  await assertServing(bystander);
});

test("no environment a plugin can read holds the host's, and the host's process is out of its sight", async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const secrets = [MARKER, process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].filter((value): value is string => Boolean(value));
  for (const file of ['/proc/self/environ', '/proc/1/environ', '/proc/2/environ', '/proc/thread-self/environ']) {
    const outcome = await attack(hostile, { attack: 'read-file', path: file });
    for (const secret of secrets) assert.ok(!JSON.stringify(outcome).includes(secret), `${file} shows the host's environment`);
  }
  for (const file of [`/proc/${process.pid}/environ`, `/proc/${process.pid}/cmdline`, `/proc/${process.ppid}/environ`]) {
    assertRefused(await attack(hostile, { attack: 'read-file', path: file }), `reading ${file}`);
  }
  assertRefused(await attack(hostile, { attack: 'stat', path: `/proc/${process.pid}` }), "looking up the host's process");
});

test('the file system a plugin lists holds only the runtime, the runner and the modules it resolves', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const topOf = (file: string) => file.split('/')[1]!;
  const expected = new Set(['dev', 'proc', 'tmp', topOf(HOST_ROOT), ...runtimeFiles().map(topOf)]);
  // Refusing to list is as good; what is listed must be no more than this.
  const listings = [
    ['/', expected],
    // Of the host's own tree, only the runner's code.
    [path.join(HOST_ROOT, 'host'), new Set(['channels'])],
    [path.join(HOST_ROOT, 'host/channels'), new Set(['plugin-side', 'runner'])],
    // Other channel packages beside it are not there at all.
    [path.dirname(HOSTILE_PACKAGE), new Set(['bot-channel-hostile'])],
  ] as const;
  for (const [dir, allowed] of listings) {
    const outcome = await attack(hostile, { attack: 'list-dir', path: dir });
    if (!outcome.ok) continue;
    const extra = (outcome.value as string[]).filter((entry) => !allowed.has(entry));
    assert.deepEqual(extra, [], `${dir} shows more than the binds`);
  }
});
