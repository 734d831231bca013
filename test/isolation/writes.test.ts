/**
 * A plugin writes no file — not into its own package, another plugin's, the host's
 * source or the host's /tmp. What it may seem to write inside its sandbox's own empty folders
 * never reaches the host's, and is gone with the runner.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { assertRefused, assertServing, attack, BYSTANDER_PACKAGE, HOST_ROOT, HOSTILE_PACKAGE, startChannel } from './hostile-runner.ts';

const PLANTED = 'export default "planted";';

function plantedName(): string {
  return `planted-${randomUUID()}.js`;
}

test("a plugin's writes never reach a file of the host's: its own package, another plugin's, the host's source, /tmp", async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  const name = plantedName();
  const targets = [
    // A read-only bind, and a folder the sandbox does not have: refused.
    ['its own package', path.join(HOSTILE_PACKAGE, 'dist', name), true],
    ["another plugin's package", path.join(BYSTANDER_PACKAGE, 'dist', name), true],
    // Folders the sandbox may have of its own (empty, gone with it): refused, or kept there.
    ["the runner's own code", path.join(HOST_ROOT, 'host/channels/runner', name), false],
    ["the host's source folder", path.join(HOST_ROOT, 'host', name), false],
    ["the host's /tmp", path.join('/tmp', name), false],
  ] as const;
  t.after(() => targets.forEach(([, file]) => rmSync(file, { force: true })));
  for (const [what, file, refused] of targets) {
    await t.test(`into ${what}`, async () => {
      const outcome = await attack(hostile, { attack: 'write-file', path: file, content: PLANTED });
      if (refused) assertRefused(outcome, `writing ${file}`);
      assert.equal(existsSync(file), false, `${file} was written on the host`);
    });
  }
  await assertServing(bystander);
});

test('a plugin writes no file at all, not even in its sandbox (no write permission)', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  for (const dir of ['/tmp', path.join(HOST_ROOT, 'host'), HOST_ROOT]) {
    const file = path.join(dir, plantedName());
    t.after(() => rmSync(file, { force: true }));
    assertRefused(await attack(hostile, { attack: 'write-file', path: file, content: PLANTED }), `writing ${file}`);
  }
});
