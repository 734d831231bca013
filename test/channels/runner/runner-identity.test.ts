import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import { MAX_SPAWN_ID, RunnerIdentityPool, type RunnerIdentityPoolOptions } from '../../../host/channels/runner/runner-identity.ts';

const BASE = 300_000;
const AS_ROOT = { uid: 0, gid: 0 };
const NOT_ROOT = process.getuid?.() !== 0 && 'needs a host running as root';

function poolOf(options: Partial<RunnerIdentityPoolOptions> = {}): RunnerIdentityPool {
  return new RunnerIdentityPool({ base: BASE, count: 8, host: AS_ROOT, inUse: () => () => false, ...options });
}

test('as root, hands each runner a uid and gid of its own from the base, and spawns as it', () => {
  const pool = poolOf();
  const ids = [pool.allocate(), pool.allocate(), pool.allocate()];
  assert.deepEqual(
    ids.map(({ uid, gid, spawn }) => ({ uid, gid, spawn })),
    [BASE, BASE + 1, BASE + 2].map((id) => ({ uid: id, gid: id, spawn: { uid: id, gid: id } })),
  );
});

test('hands a released id out again, the lowest free first', () => {
  const pool = poolOf();
  const [first, second] = [pool.allocate(), pool.allocate()];
  first.release();
  assert.equal(pool.allocate().uid, BASE);
  second.release();
  assert.equal(pool.allocate().uid, BASE + 1);
});

test('a second release frees nothing: the id may be another runner’s by then', () => {
  const pool = poolOf();
  const first = pool.allocate();
  first.release();
  const next = pool.allocate();
  assert.equal(next.uid, first.uid);
  first.release();
  assert.equal(pool.allocate().uid, BASE + 1);
});

test('skips the ids the machine uses', () => {
  const taken = new Set([BASE, BASE + 2]);
  const pool = poolOf({ inUse: () => (id) => taken.has(id) });
  assert.deepEqual([pool.allocate().uid, pool.allocate().uid], [BASE + 1, BASE + 3]);
});

test('refuses with BOT_ERR_PLUGIN_RUNNER_DOWN once every id of the range is held', () => {
  const pool = poolOf({ count: 2 });
  pool.allocate();
  pool.allocate();
  assert.throws(() => pool.allocate(), { code: 'BOT_ERR_PLUGIN_RUNNER_DOWN', message: /No uid is free .* 300000–300001/ });
});

test('a host that is not root keeps its own uid and gid for every runner', () => {
  const pool = poolOf({ host: { uid: 1_000, gid: 1_001 } });
  const [first, second] = [pool.allocate(), pool.allocate()];
  assert.deepEqual({ uid: first.uid, gid: first.gid, spawn: first.spawn }, { uid: 1_000, gid: 1_001, spawn: {} });
  assert.equal(second.uid, 1_000);
  first.release();
});

test('refuses a range below nobody (65534) or past the ids spawn takes', () => {
  assert.throws(() => poolOf({ base: 1_000 }), /base must be an integer above 65534/);
  assert.throws(() => poolOf({ count: 0 }), /count must be a positive integer/);
  assert.throws(() => poolOf({ base: MAX_SPAWN_ID }), /base \+ count must stay within 2147483648/);
});

/** A `sleep` running as the identity; killed after the test. */
async function sleeperAs(t: TestContext, spawnAs: { uid?: number; gid?: number }): Promise<number> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore', ...spawnAs });
  t.after(() => child.kill('SIGKILL'));
  await once(child, 'spawn');
  return child.pid!;
}

test('skips an id a live process runs as, as another host’s runner would', { skip: NOT_ROOT }, async (t) => {
  const pool = new RunnerIdentityPool({ base: BASE, count: 8 });
  await sleeperAs(t, { uid: BASE, gid: BASE });
  assert.equal(pool.allocate().uid, BASE + 1);
});

test('a runner on its identity cannot signal a runner on another', { skip: NOT_ROOT }, async (t) => {
  const pool = new RunnerIdentityPool({ base: BASE, count: 8 });
  const [victim, attacker] = [pool.allocate(), pool.allocate()];
  const victimPid = await sleeperAs(t, victim.spawn);
  const kill = spawnSync('sh', ['-c', `kill -9 ${victimPid}`], { ...attacker.spawn, encoding: 'utf8' });
  assert.notEqual(kill.status, 0, 'kill -9 failed');
  assert.match(kill.stderr, /not permitted/i);
  assert.equal(spawnSync('sh', ['-c', `kill -0 ${victimPid}`], { ...victim.spawn }).status, 0, 'the same identity could signal it');
});
