/**
 * Plugin code sees none of the host's environment, and never holds root.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attack, HOSTILE_PACKAGE, markHostEnvironment, startChannel } from './hostile-runner.ts';

markHostEnvironment();

test("a plugin's process.env is empty: no marker of the host, no database URL", async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const outcome = await attack(hostile, { attack: 'env' });
  assert.deepEqual(outcome, { ok: true, value: {} });
});

test('a plugin runs as the unprivileged uid and gid 65534, never as root', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const outcome = await attack(hostile, { attack: 'identity' });
  assert.deepEqual(outcome, { ok: true, value: { uid: 65534, gid: 65534, euid: 65534, egid: 65534, groups: [65534] } });
});
