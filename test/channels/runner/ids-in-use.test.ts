import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { idsInUse } from '../../../host/channels/runner/ids-in-use.ts';

const NOT_ROOT = process.getuid?.() !== 0 && 'needs a host running as root';

test("counts the ids /etc/passwd names: root's and nobody's", () => {
  const inUse = idsInUse();
  assert.equal(inUse(0), true);
  assert.equal(inUse(65_534), true);
});

test('counts the id a live process runs as, and no longer once it has exited', { skip: NOT_ROOT }, async () => {
  const id = 2_000_000_000;
  assert.equal(idsInUse()(id), false);
  const child = spawn('sleep', ['60'], { stdio: 'ignore', uid: id, gid: id });
  await once(child, 'spawn');
  assert.equal(idsInUse()(id), true);
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.equal(idsInUse()(id), false);
});
