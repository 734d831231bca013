/**
 * The adversarial suite once more with the host as an ordinary user. As root, each runner gets a
 * uid of its own, and that alone kept some files out of a plugin's reach; a host run as an
 * ordinary user (as the docs advise) shares its uid with its runners, so only the sandbox's own
 * layers hold. This file runs every other test of this folder under `setpriv` as `nobody`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runnerBundle } from '../../host/channels/runner/runner-bundle.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const NOBODY = 65534;
const SETPRIV = '/usr/bin/setpriv';
const NESTED = 'BOT_TEST_UNPRIVILEGED_HOST';
const skip =
  process.env[NESTED] === '1' ? 'this is the unprivileged run'
  : process.getuid?.() !== 0 ? `the suite already runs as an ordinary user (uid ${process.getuid?.()})`
  : !existsSync(SETPRIV) ? 'setpriv (util-linux) is not installed'
  : false;

test('the isolation suite holds with the host as an unprivileged user', { skip, timeout: 600_000 }, async () => {
  // Built as root first: `nobody` cannot write the bundle into the host's tree, and would run the sources.
  await runnerBundle((error) => assert.fail(`the runner bundle could not be built: ${String(error)}`));
  const files = (await readdir(HERE)).filter((name) => name.endsWith('.test.ts') && name !== path.basename(fileURLToPath(import.meta.url))).map((name) => path.join(HERE, name));
  const args = ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', '--', process.execPath, '--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=tap', ...files];
  // NODE_TEST_CONTEXT would make the nested runner think it is this one's child and run nothing.
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const child = spawn(SETPRIV, args, { cwd: ROOT, env: { ...env, [NESTED]: '1', HOME: '/tmp' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `the isolation suite failed as uid ${NOBODY}:\n${output.slice(-8_000)}`);
  const passed = Number(/^# pass (\d+)$/m.exec(output)?.[1] ?? 0);
  assert.ok(passed > 0, `no test ran as uid ${NOBODY}:\n${output.slice(-2_000)}`);
});
